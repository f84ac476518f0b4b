import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const work = mkdtempSync(join(tmpdir(), "quotabar-pack-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const npm = (args: string[], cwd: string) =>
  execFileSync("npm", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, npm_config_update_notifier: "false" },
    stdio: ["ignore", "pipe", "pipe"],
  });

/** The offline install needs npm's cache primed by scripts/prime-install-cache.sh (CI runs it after npm ci). */
const primed = (() => {
  try {
    npm(["cache", "ls", "@oclif/core"], ROOT);
    return true;
  } catch {
    return false;
  }
})();

describe("installed as users install it", () => {
  if (!primed && !process.env.CI)
    console.warn("skipping the global-install test: run scripts/prime-install-cache.sh once (it needs the npm registry)");
  it.runIf(primed || process.env.CI)(
    "packs, installs globally from the tarball (no registry needed), and runs the demo from any directory",
    () => {
      const tarball = JSON.parse(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", work], ROOT))[0].filename as string;
      const prefix = join(work, "global");
      // --offline: the dependencies come from npm's cache, filled by `npm ci`; a test never reaches the network
      npm(["install", "--global", "--offline", "--no-audit", "--no-fund", "--prefix", prefix, join(work, tarball)], work);
      const installed = join(prefix, "lib", "node_modules", "quotabar");
      expect(existsSync(join(installed, "test"))).toBe(false);
      expect(existsSync(join(installed, "providers", "warp", "fixtures"))).toBe(true);
      const dependencies = readdirSync(join(installed, "node_modules")).concat(readdirSync(join(prefix, "lib", "node_modules")));
      for (const devOnly of ["vitest", "typescript", "nock", "fast-check", "eslint"]) expect(dependencies).not.toContain(devOnly);

      const elsewhere = mkdtempSync(join(work, "cwd-"));
      const out = execFileSync(join(prefix, "bin", "quotabar"), ["demo", "--json"], {
        cwd: elsewhere,
        encoding: "utf8",
        env: { PATH: process.env.PATH, HOME: elsewhere },
      });
      const doc = JSON.parse(out) as { providers: { ok: boolean }[] };
      expect(doc.providers.length).toBeGreaterThanOrEqual(8);
      expect(doc.providers.every((p) => p.ok)).toBe(true);
    },
    180_000,
  );
});
