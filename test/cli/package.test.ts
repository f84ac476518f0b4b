import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProgram, type CliResult } from "../helpers/cli.js";

const ROOT = join(import.meta.dirname, "..", "..");
const work = mkdtempSync(join(tmpdir(), "quotabar-pack-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Ran = CliResult;
const spawned = (command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) =>
  runProgram(command, args, { cwd: options.cwd, env: options.env ?? { ...process.env, npm_config_update_notifier: "false" } });

/** Dependencies dist/ bundles, and dev tools: none may be installed with the package. */
const BUNDLED_OR_DEV = [
  "@oclif/core",
  "zod",
  "got",
  "htmlparser2",
  "fast-xml-parser",
  "prom-client",
  "vitest",
  "typescript",
  "nock",
  "fast-check",
  "eslint",
  "esbuild",
];
const NATIVE = ["better-sqlite3", "classic-level", "@napi-rs"];

describe("installed as users install it, from the tarball", () => {
  let installed = "";
  let bin = "";
  let install: Ran;

  beforeAll(async () => {
    const pack = await spawned("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], { cwd: ROOT });
    const tarball = (JSON.parse(pack.stdout) as { filename: string }[])[0]?.filename as string;
    const prefix = join(work, "global");
    // --offline: every registry answer comes from npm's cache (scripts/prime-install-cache.sh fills it);
    // --ignore-scripts: the native addons are not built, as on a machine where they cannot be
    install = await spawned(
      "npm",
      ["install", "--global", "--offline", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix", prefix, join(work, tarball)],
      { cwd: work },
    );
    installed = join(prefix, "lib", "node_modules", "quotabar");
    bin = join(prefix, "bin", "quotabar");
  }, 120_000);

  /** The cache must hold exactly what this install asks for; without it the test cannot run offline. */
  const cacheMissing = () => /ENOTCACHED/.test(install.stderr);

  it("installs no bundled library, no dev tool, no test and no source map; only the optional native addons", (context) => {
    if (cacheMissing() && !process.env.CI) context.skip(); // run scripts/prime-install-cache.sh once (it needs the registry)
    expect(install.code, install.stderr).toBe(0);
    const ownModules = existsSync(join(installed, "node_modules")) ? readdirSync(join(installed, "node_modules")) : [];
    for (const name of BUNDLED_OR_DEV) expect(ownModules).not.toContain(name);
    expect(ownModules.filter((name) => !name.startsWith("."))).toEqual(expect.arrayContaining(NATIVE));
    expect(existsSync(join(installed, "test"))).toBe(false);
    expect(existsSync(join(installed, "LICENSE"))).toBe(true);
    expect(readdirSync(join(installed, "dist"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".map"))).toEqual([]);
    // quotabar serve's page: its files are in the package, where serve reads them (nothing is fetched from elsewhere)
    expect(readdirSync(join(installed, "dist", "oclif-cli", "serve", "page")).sort()).toEqual([
      "favicon.svg",
      "index.html",
      "page.css",
      "page.js",
    ]);
  });

  it("without the native addons: the demo works from any directory, and reading a browser says which package is missing", async (context) => {
    if (cacheMissing() && !process.env.CI) context.skip();
    expect(install.code, install.stderr).toBe(0);
    for (const name of NATIVE) rmSync(join(installed, "node_modules", name), { recursive: true, force: true });

    const elsewhere = mkdtempSync(join(work, "cwd-"));
    const env = { PATH: process.env.PATH, HOME: elsewhere };
    const demo = await spawned(bin, ["demo", "--json"], { cwd: elsewhere, env });
    const doc = JSON.parse(demo.stdout) as { providers: { ok: boolean }[] };
    expect(doc.providers.length).toBeGreaterThanOrEqual(16);
    expect(doc.providers.every((p) => p.ok)).toBe(true);

    // a Firefox profile to read: its cookie database needs better-sqlite3
    const profile = join(elsewhere, ".mozilla", "firefox", "main.default-release");
    mkdirSync(profile, { recursive: true });
    writeFileSync(join(profile, "..", "profiles.ini"), "[Profile0]\nName=main\nIsRelative=1\nPath=main.default-release\nDefault=1\n");
    writeFileSync(join(profile, "cookies.sqlite"), "");
    mkdirSync(join(elsewhere, ".config", "quotabar"), { recursive: true });
    writeFileSync(
      join(elsewhere, ".config", "quotabar", "config.json"),
      JSON.stringify({ version: 1, providers: [{ id: "ollama", browsers: ["firefox"] }] }),
    );
    const cookies = await spawned(bin, ["cookies", "ollama"], { cwd: elsewhere, env });
    expect(cookies.stdout + cookies.stderr).toContain("needs the optional package better-sqlite3, which is not installed here");
    expect(cookies.stderr).not.toMatch(/at .+\.js:\d+/); // a sentence, not a stack trace
  }, 60_000);
});
