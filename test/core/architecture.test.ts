import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../../providers/registry.js";

const ROOT = join(import.meta.dirname, "..", "..");
const SKIP = new Set(["node_modules", "dist", ".git", "preview-out"]);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx|js|mjs)$/.test(name) ? [path] : [];
  });
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file) || /(^|\/)test\//.test(relative(ROOT, file));

function imports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g)].map((m) => m[1] as string);
}

/** Where an import lands, as a path from the root ("domain/errors.js"), or the package name. */
function target(file: string, spec: string): string {
  return spec.startsWith(".") ? relative(ROOT, join(file, "..", spec)) : spec;
}

/** `file -> import` for every import of the files under `dirs` that `allowed` refuses. */
function offenders(dirs: string[], allowed: (to: string, file: string) => boolean, files = (f: string) => !isTest(f)): string[] {
  return dirs.flatMap((dir) =>
    sources(join(ROOT, dir))
      .filter(files)
      .flatMap((file) =>
        imports(file)
          .map((spec) => target(file, spec))
          .filter((to) => !allowed(to, file))
          .map((to) => `${relative(ROOT, file)} -> ${to}`),
      ),
  );
}

const INFRASTRUCTURE = /^(got|better-sqlite3|classic-level|@napi-rs\/keyring|node:child_process|child_process|@raycast\/|@oclif\/|react)/;
const DRIVERS_AND_TESTS = /^(oclif-cli|raycast|menubar-raycast|library|test)\//;
const providerFolder = (file: string) => relative(ROOT, file).split("/").slice(0, 2).join("/");

describe("architecture (docs/architecture.md states these rules)", () => {
  it("keeps domain/ and ports/ to themselves (and zod)", () => {
    const allowed = (to: string) => /^(domain|ports)\//.test(to) || to === "zod" || to === "node:http";
    expect(offenders(["domain", "ports"], allowed)).toEqual([]);
  });

  it("keeps a provider's policy pure: domain/ and ports/ only", () => {
    const allowed = (to: string, file: string) => /^(domain|ports)\//.test(to) || to.startsWith(`${providerFolder(file)}/policy`);
    expect(offenders(["providers"], allowed, (f) => !isTest(f) && /\/policy[^/]*\.ts$/.test(f))).toEqual([]);
  });

  it("keeps a provider's wire on the kit: its own folder, the kit, domain/, ports/ and zod", () => {
    const allowed = (to: string, file: string) =>
      to.startsWith(`${providerFolder(file)}/`) || /^(providers\/kit|domain|ports)\//.test(to) || to === "zod";
    const wire = (f: string) =>
      !isTest(f) &&
      !/\/(simulator|index)\.ts$/.test(f) &&
      !relative(ROOT, f).startsWith("providers/kit/") &&
      !relative(ROOT, f).startsWith("providers/registry");
    expect(offenders(["providers"], allowed, wire)).toEqual([]);
  });

  it("lets no provider (kit included) import an HTTP library, a database, child_process, a driver or test/", () => {
    const allowed = (to: string) => !INFRASTRUCTURE.test(to) && !DRIVERS_AND_TESTS.test(to) && !/^simulator\/server/.test(to);
    expect(offenders(["providers"], allowed)).toEqual([]);
  });

  it("keeps drivers and test/ out of domain/, ports/, adapters/, providers/, simulator/ and presentation/", () => {
    const allowed = (to: string) => !DRIVERS_AND_TESTS.test(to) && !/^@(raycast|oclif)\//.test(to);
    expect(offenders(["domain", "ports", "adapters", "providers", "simulator", "presentation"], allowed)).toEqual([]);
  });

  it("never lets product code import test/", () => {
    const product = [
      "index.ts",
      "domain",
      "ports",
      "adapters",
      "providers",
      "simulator",
      "presentation",
      "library",
      "oclif-cli",
      "raycast/src",
      "menubar-raycast",
    ];
    const dirs = product.filter((p) => !p.endsWith(".ts"));
    expect(offenders(dirs, (to) => !/^(test|raycast\/test)\//.test(to))).toEqual([]);
  });

  it("imports @raycast/* only from raycast/ and menubar-raycast/ (and the Raycast test double)", () => {
    const found = sources(ROOT)
      .filter((file) => !/^(raycast|menubar-raycast)\//.test(relative(ROOT, file)))
      .flatMap((file) =>
        imports(file)
          .filter((spec) => spec.startsWith("@raycast/"))
          .map((spec) => `${relative(ROOT, file)} -> ${spec}`),
      );
    expect(found).toEqual([]);
  });

  it("gives every provider one folder, registered once, with a doc page", () => {
    const folders = readdirSync(join(ROOT, "providers")).filter(
      (name) => statSync(join(ROOT, "providers", name)).isDirectory() && name !== "kit",
    );
    expect(folders.sort()).toEqual(PROVIDERS.map((m) => m.descriptor.id).sort());
    const withStrategies = PROVIDERS.filter((m) => m.strategies.length > 0).map((m) => m.descriptor.id);
    for (const id of withStrategies) expect(readdirSync(join(ROOT, "providers", id)), id).toContain("README.md");
  });

  it("gives the library entry no side effects: importing it opens no socket and writes nothing", async () => {
    const { execFileSync } = await import("node:child_process");
    const script = `
      import net from "node:net"; import fs from "node:fs";
      const calls = [];
      for (const name of ["connect", "createConnection"]) { const orig = net[name]; net[name] = (...a) => { calls.push(name); return orig(...a); }; }
      const w = fs.writeFileSync; fs.writeFileSync = (...a) => { calls.push("write"); return w(...a); };
      const lib = await import(${JSON.stringify(join(ROOT, "dist", "index.js"))});
      if (typeof lib.createQuotabar !== "function") throw new Error("no createQuotabar");
      lib.createQuotabar({ env: { HOME: "/nonexistent" } });
      console.log(JSON.stringify(calls));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(JSON.parse(out)).toEqual([]);
  });

  it("keeps VERSION equal to package.json", async () => {
    const { VERSION } = await import("../../domain/version.js");
    expect(VERSION).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
  });
});
