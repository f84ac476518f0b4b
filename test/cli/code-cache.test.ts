import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runProgram } from "../helpers/cli.js";

const CODE_CACHE = join(import.meta.dirname, "..", "..", "dist", "cjs", "oclif-cli", "code-cache.cjs");
const BUILD = readFileSync(join(import.meta.dirname, "..", "..", "dist", "cjs", "build-id"), "utf8").trim();
const FOLDER = `${BUILD}-${process.version}-${process.arch}`;

/** A home whose quotabar cache dir exists (a refresh made it): the code cache never makes it. */
const homeOf = () => {
  const home = mkdtempSync(join(tmpdir(), "qb-code-"));
  mkdirSync(join(home, ".cache", "quotabar"), { recursive: true });
  return { home, env: { HOME: home, NO_COLOR: "1", OPENROUTER_API_KEY: "sk-or-v1-code-cache-0123456789" } };
};
/** The folder of `quotabar providers`'s cache (each plain answer has its own). */
const storeOf = (home: string) => join(home, ".cache", "quotabar", "code", FOLDER, "providers-plain");
/** Each cache file and when it was last written. */
const written = (store: string) => new Map(readdirSync(store).map((f) => [f, statSync(join(store, f)).mtimeMs]));

/** bin/run.cjs's plain answers keep V8's compiled code of dist/cjs/ between runs (oclif-cli/code-cache.ts). */
describe("the code cache of the plain answers", () => {
  it("is written by the first run of a build, read back by the next without a rewrite, and the answer stays the same", async () => {
    const { home, env } = homeOf();
    const first = await runCli(["providers", "--json"], env);
    expect(first.code, first.stderr).toBe(0);
    const store = storeOf(home);
    const files = written(store);
    expect([...files.keys()]).toContain("oclif-cli~providers-plain.cjs.v8");
    expect([...files.keys()].filter((f) => f.startsWith("chunks~")).length).toBeGreaterThan(3);
    expect([...files.keys()].every((f) => f.endsWith(".v8"))).toBe(true); // no temporary file left
    expect(statSync(store).mode & 0o777).toBe(0o700);

    const second = await runCli(["providers", "--json"], env);
    expect(second.stdout).toBe(first.stdout);
    // accepted by V8: nothing compiled afresh, so nothing written again
    expect(written(store)).toEqual(files);

    // a refresh keeps its own (what `providers` compiled of a module shared with it is not what a refresh runs)
    const closed = JSON.stringify({ "https://openrouter.ai": "http://127.0.0.1:9/openrouter.ai" }); // nothing listens on port 9
    const refresh = await runCli(["-p", "openrouter", "--json"], { ...env, QUOTABAR_ORIGIN_MAP: closed });
    expect(JSON.parse(refresh.stdout).providers[0]).toMatchObject({ id: "openrouter", ok: false });
    expect(readdirSync(join(store, "..")).sort()).toEqual(["providers-plain", "usage-plain"]);
    expect(written(store)).toEqual(files);
  });

  it("a damaged cache (one V8 refuses, or a byte changed that V8 would run) is compiled without and written again; the oldest builds' folders are removed", async () => {
    const { home, env } = homeOf();
    const reference = await runCli(["providers"], env);
    const store = storeOf(home);
    const damaged = join(store, "oclif-cli~providers-plain.cjs.v8");
    writeFileSync(damaged, "not V8's code cache");
    // a byte changed inside V8's data (its length and header intact: V8 alone would not notice)
    const flipped = readdirSync(store).find((f) => f.startsWith("chunks~")) as string;
    const bytes = readFileSync(join(store, flipped));
    const at = Math.floor(bytes.length * 0.75);
    bytes[at] = (bytes[at] as number) ^ 0x5a;
    writeFileSync(join(store, flipped), bytes);
    const earlier = join(home, ".cache", "quotabar", "code", `an-earlier-build-${process.version}-${process.arch}`);
    mkdirSync(earlier);

    const run = await runCli(["providers"], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(reference.stdout);
    expect(readFileSync(damaged).length).toBeGreaterThan(100);
    expect(readFileSync(join(store, flipped)).equals(bytes)).toBe(false);
    // folders are only tidied when a build's own folder is created
    expect(existsSync(earlier)).toBe(true);

    // a new build's first run keeps the four newest folders (two installs used in turn keep theirs)
    const other = homeOf();
    const code = join(other.home, ".cache", "quotabar", "code");
    for (const [i, name] of ["build-a", "build-b", "build-c", "build-d"].entries()) {
      mkdirSync(join(code, name), { recursive: true });
      utimesSync(join(code, name), 1_700_000_000 + i, 1_700_000_000 + i);
    }
    expect((await runCli(["providers"], other.env)).code).toBe(0);
    expect(readdirSync(code).sort()).toEqual([FOLDER, "build-b", "build-c", "build-d"].sort());
  });

  it("loads sibling modules by their path as Node would: once each, a cycle with the exports so far, a failed one not kept", async () => {
    const { env } = homeOf();
    const cjs = mkdtempSync(join(tmpdir(), "qb-cjs-"));
    mkdirSync(join(cjs, "chunks"));
    writeFileSync(join(cjs, "build-id"), "a-test-build\n");
    writeFileSync(
      join(cjs, "entry.cjs"),
      `globalThis.loads = (globalThis.loads ?? 0) + 1;
       exports.early = "set before the cycle";
       const a = require("./chunks/a.cjs"), again = require("./chunks/../chunks/a.cjs");
       let failed = 0;
       for (let i = 0; i < 2; i++) try { require("./chunks/broken.cjs"); } catch { failed++; }
       module.exports = { same: a === again, seen: a.seen, failed, tries: globalThis.tries, os: require("node:os") === require("os"), hasResolve: typeof require.resolve };`,
    );
    writeFileSync(join(cjs, "chunks", "a.cjs"), `exports.seen = require("../entry.cjs").early;`);
    writeFileSync(join(cjs, "chunks", "broken.cjs"), `globalThis.tries = (globalThis.tries ?? 0) + 1; throw new Error("broken");`);
    const script = `const out = require(${JSON.stringify(CODE_CACHE)}).requireWithCodeCache(module.constructor, ${JSON.stringify(cjs)}, "./entry.cjs");
      process.stdout.write(JSON.stringify({ ...out, loads: globalThis.loads }));`;
    const run = await runProgram(process.execPath, ["-e", script], { env: { ...env, PATH: process.env.PATH } });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({
      same: true,
      seen: "set before the cycle",
      failed: 2,
      tries: 2,
      os: true,
      hasResolve: "function",
      loads: 1,
    });
  });

  it("the modules of dist/cjs/ read a module's namespace through an object that inherits from it (no copy of each property)", () => {
    const files = readdirSync(join(CODE_CACHE, "..", ".."), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(".cjs"));
    const withNamespaces = files.filter((f) => readFileSync(join(CODE_CACHE, "..", "..", f), "utf8").includes("__toESM="));
    expect(withNamespaces.length).toBeGreaterThan(3);
    for (const file of withNamespaces) {
      const text = readFileSync(join(CODE_CACHE, "..", "..", file), "utf8");
      expect(text, file).toContain("__toESM=mod=>__create(mod,{default:{value:mod,enumerable:!0}})");
      expect(text, file).not.toContain("__copyProps(isNodeMode");
    }
  });

  it("is not written before quotabar's cache dir exists", async () => {
    const home = mkdtempSync(join(tmpdir(), "qb-code-"));
    expect((await runCli(["providers"], { HOME: home })).code).toBe(0);
    expect(existsSync(join(home, ".cache"))).toBe(false);
  });

  it("a cache dir that cannot be written changes nothing but the speed", async () => {
    const { home, env } = homeOf();
    const reference = await runCli(["providers", "--json"], { ...env, XDG_CACHE_HOME: join(home, "writable") });
    writeFileSync(join(home, "a-file"), ""); // a folder there cannot be made (a read-only folder would not stop root)
    const run = await runCli(["providers", "--json"], { ...env, XDG_CACHE_HOME: join(home, "a-file") });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(reference.stdout);
  });
});
