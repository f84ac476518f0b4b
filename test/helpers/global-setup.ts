import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * CLI tests run the built bin: build dist/ and oclif.manifest.json as `npm run build` does, when a
 * source changed since the last build (scripts/build.mjs --if-stale). After the run: fail if a test
 * wrote to the real user's secret stores.
 */
export default function setup(): () => void {
  const before = realSecretStores();
  const root = join(import.meta.dirname, "..", "..");
  const built = [
    join(root, "dist", "index.js"),
    join(root, "dist", "oclif-cli", "commands", "usage.js"),
    join(root, "oclif.manifest.json"),
  ];
  if (process.env.QUOTABAR_SKIP_BUILD !== "1" || !built.every((file) => existsSync(file))) {
    execFileSync(process.execPath, [join(root, "scripts", "build.mjs"), "--if-stale"], { stdio: "inherit" });
    const missing = built.filter((file) => !existsSync(file));
    if (missing.length > 0) throw new Error(`the build did not produce ${missing.join(", ")}`);
  }
  return () => {
    const after = realSecretStores();
    if (after !== before) throw new Error(`a test wrote to the real user's secret store:\nbefore: ${before}\nafter: ${after}`);
  };
}

/**
 * What the user running the tests has in the stores quotabar could write: the kernel keyring's
 * quotabar entries (where @napi-rs/keyring falls back on Linux) and the secrets file of the real
 * config directory. Tests use memory, throwaway files or a private Secret Service.
 */
function realSecretStores(): string {
  const keys = existsSync("/proc/keys")
    ? readFileSync("/proc/keys", "utf8")
        .split("\n")
        .filter((line) => /quotabar/i.test(line))
        .map((line) => line.split(/\s+/).slice(8).join(" "))
    : [];
  const file = join(homedir(), ".config", "quotabar", "secrets.json");
  const written = statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? "none";
  return JSON.stringify({ kernelKeyring: keys.sort(), secretsFile: written });
}
