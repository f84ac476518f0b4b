import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../helpers/providers.js";

const ROOT = join(import.meta.dirname, "..", "..");
const SKIP = new Set(["node_modules", "dist", "dist-raycast", ".git", "preview-out"]);

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
  it("keeps domain/ and ports/ to themselves (and zod, through domain/zod.ts)", () => {
    const allowed = (to: string, file: string) =>
      /^(domain|ports)\//.test(to) || to === "node:http" || (relative(ROOT, file) === "domain/zod.ts" && /^zod\//.test(to));
    expect(offenders(["domain", "ports"], allowed)).toEqual([]);
  });

  it("builds every schema with zod as domain/zod.ts sets it up (zod/mini, English messages): nothing else imports zod", () => {
    const dirs = [
      "domain",
      "ports",
      "adapters",
      "providers",
      "library",
      "oclif-cli",
      "presentation",
      "simulator",
      "raycast/src",
      "raycast/shared",
      "menubar-raycast",
    ];
    const allowed = (to: string, file: string) => !/^zod(\/|$)/.test(to) || relative(ROOT, file) === "domain/zod.ts";
    expect(offenders(dirs, allowed)).toEqual([]);
  });

  it("keeps a provider's policy pure: domain/ and ports/ only", () => {
    const allowed = (to: string, file: string) => /^(domain|ports)\//.test(to) || to.startsWith(`${providerFolder(file)}/policy`);
    expect(offenders(["providers"], allowed, (f) => !isTest(f) && /\/policy[^/]*\.ts$/.test(f))).toEqual([]);
  });

  it("keeps a provider's wire on the kit: its own folder, the kit, domain/, ports/ and zod", () => {
    const allowed = (to: string, file: string) => to.startsWith(`${providerFolder(file)}/`) || /^(providers\/kit|domain|ports)\//.test(to);
    const wire = (f: string) =>
      !isTest(f) &&
      !/\/(simulator|index)\.ts$/.test(f) &&
      !relative(ROOT, f).startsWith("providers/kit/") &&
      !relative(ROOT, f).startsWith("providers/registry");
    expect(offenders(["providers"], allowed, wire)).toEqual([]);
  });

  it("loads a provider's module when a run first needs it: the registry imports only the descriptors", () => {
    const imports = [...readFileSync(join(ROOT, "providers", "registry.ts"), "utf8").matchAll(/^import (?!type\b)[^;]*?from "([^"]+)"/gm)];
    const other = imports.map((m) => m[1]).filter((to) => !/^\.\/[^/]+\/descriptor\.js$/.test(to as string));
    expect(other).toEqual(["../domain/provider-catalog.js"]);
  });

  it("loads a provider's requests and schemas with its first fetch: nothing its index.ts imports reaches zod, a wire or a page parser", () => {
    // static imports only (`import type` and `import()` excluded): what loading a provider module loads
    const staticImports = (file: string) =>
      [
        ...readFileSync(file, "utf8").matchAll(/^(?:import|export) (?!type\b)[^;]*?\bfrom ["']([^"']+)["']|^import ["']([^"']+)["']/gms),
      ].map((m) => target(file, (m[1] ?? m[2]) as string).replace(/\.js$/, ".ts"));
    const heavy = (to: string) =>
      to === "domain/zod.ts" ||
      /^providers\/[^/]+\/wire[^/]*\.ts$/.test(to) ||
      /^providers\/kit\/(schema|html|html-elements|xml)\.ts$/.test(to);
    const found: string[] = [];
    for (const { descriptor } of PROVIDERS) {
      const seen = new Set<string>();
      const walk = (file: string, path: string[]) => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const to of staticImports(join(ROOT, file))) {
          if (heavy(to)) found.push([...path, file, to].join(" -> "));
          else if (/^(providers|domain|ports)\//.test(to)) walk(to, [...path, file]);
        }
      };
      walk(`providers/${descriptor.id}/index.ts`, []);
    }
    expect(found).toEqual([]);
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
    // every registered provider is read by this version (Raycast's canRead counts on it)
    for (const m of PROVIDERS) expect(m.strategies.length, m.descriptor.id).toBeGreaterThan(0);
    for (const m of PROVIDERS) expect(readdirSync(join(ROOT, "providers", m.descriptor.id)), m.descriptor.id).toContain("README.md");
    // what a list or a menu knows without loading a provider's code says the same as the code
    for (const m of PROVIDERS) expect(m.descriptor.keepsSession === true, m.descriptor.id).toBe(m.keepalive !== undefined);
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

  it("keeps the library import light: no HTTP client, provider module, adapter or DI container loads, no timer or socket starts", async () => {
    const { execFileSync } = await import("node:child_process");
    // A loader hook (on its own thread) reports every module the import evaluates; "flush" makes it
    // answer once every report before it has arrived.
    const hooks = `let port;
      export function initialize(data) { port = data.port; port.on("message", () => port.postMessage("flushed")); port.unref(); }
      export async function load(url, context, next) { port.postMessage(url); return next(url, context); }`;
    const script = `
      import { register } from "node:module"; import { MessageChannel } from "node:worker_threads";
      const { port1, port2 } = new MessageChannel();
      const urls = []; let flushed;
      port1.on("message", (m) => (m === "flushed" ? flushed() : urls.push(m)));
      register("data:text/javascript," + encodeURIComponent(${JSON.stringify(hooks)}), { data: { port: port2 }, transferList: [port2] });
      const builtinsBefore = new Set(process.moduleLoadList);
      const lib = await import(${JSON.stringify(join(ROOT, "dist", "index.js"))});
      const quotabar = lib.createQuotabar({ env: { HOME: "/nonexistent", PATH: "" } });
      const listed = quotabar.providers();
      const resources = process.getActiveResourcesInfo();
      const builtins = process.moduleLoadList.filter((m) => !builtinsBefore.has(m));
      await new Promise((resolve) => { flushed = resolve; port1.postMessage("flush"); });
      port1.close();
      console.log(JSON.stringify({ urls, resources, builtins, listed, descriptors: lib.DESCRIPTORS, ids: lib.PROVIDER_IDS }));`;
    const out = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" })) as {
      urls: string[];
      resources: string[];
      builtins: string[];
      listed: unknown[];
      descriptors: unknown[];
      ids: string[];
    };
    // dist/ is bundled: what a loaded module holds is the list of sources in its source map
    const loaded = out.urls.filter((url) => url.startsWith("file:")).map((url) => fileURLToPath(url));
    const fromDist = loaded.filter((file) => file.startsWith(join(ROOT, "dist")));
    expect(fromDist).toContain(join(ROOT, "dist", "index.js"));
    expect(loaded.filter((file) => !fromDist.includes(file))).toEqual([]); // nothing straight from node_modules
    const sources = fromDist.flatMap((file) =>
      (JSON.parse(readFileSync(`${file}.map`, "utf8")) as { sources: string[] }).sources.map((s) => relative(ROOT, join(dirname(file), s))),
    );
    expect(sources).toContain("library/create-quotabar.ts");
    // the registry and the descriptors (data) load; no provider's code does
    expect(
      sources.filter((s) => /^providers\//.test(s) && s !== "providers/registry.ts" && !/^providers\/[^/]+\/descriptor\.ts$/.test(s)),
    ).toEqual([]);
    expect(sources.filter((s) => /^adapters\//.test(s))).toEqual([]);
    expect(sources.filter((s) => /node_modules\/(got|http2-wrapper|cacheable-request|undici|node-fetch|axios|ky)\//.test(s))).toEqual([]);
    expect(sources.filter((s) => /(tsyringe|inversify|awilix|reflect-metadata)/.test(s))).toEqual([]);
    expect(out.builtins.filter((m) => /^NativeModule (http|https|http2|tls|net|dgram|dns|child_process)$/.test(m))).toEqual([]);
    expect(out.resources.filter((r) => /Timeout|Immediate|TCP|UDP|Socket|Server|GetAddrInfo|Process|Signal/i.test(r))).toEqual([]);
    // the built library's descriptors are the registry's
    const registry = JSON.parse(JSON.stringify(PROVIDERS.map((m) => m.descriptor)));
    expect(out.descriptors).toEqual(registry);
    expect(out.listed).toEqual(registry);
    expect(out.ids).toEqual(PROVIDERS.map((m) => m.descriptor.id));
  });

  it("keeps VERSION equal to package.json", async () => {
    const { VERSION } = await import("../../domain/version.js");
    expect(VERSION).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
  });
});
