import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/** CLI tests run the built bin: build dist/ and oclif.manifest.json exactly as `npm run build` does (scripts/build.mjs). */
export default function setup(): void {
  const root = join(import.meta.dirname, "..", "..");
  const built = [
    join(root, "dist", "index.js"),
    join(root, "dist", "oclif-cli", "commands", "usage.js"),
    join(root, "oclif.manifest.json"),
  ];
  if (process.env.QUOTABAR_SKIP_BUILD === "1" && built.every((file) => existsSync(file))) return;
  execFileSync(process.execPath, [join(root, "scripts", "build.mjs")], { stdio: "inherit" });
  const missing = built.filter((file) => !existsSync(file));
  if (missing.length > 0) throw new Error(`the build did not produce ${missing.join(", ")}`);
}
