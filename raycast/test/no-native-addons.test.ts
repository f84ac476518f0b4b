import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";

const extension = resolve(fileURLToPath(new URL("..", import.meta.url)));
const repo = resolve(extension, "..");
const manifest = JSON.parse(readFileSync(join(extension, "package.json"), "utf8")) as { commands: { name: string }[] };

/** Native addons Raycast cannot load (ray build rejects .node files); the CLI may use them, the extension never. */
const FORBIDDEN = /^(better-sqlite3|classic-level|leveldown|keytar|@napi-rs\/keyring)(\/|$)|\.node$/;

/** Bundle every command the way `ray build` does (esbuild, node platform, Raycast's externals) and keep the import graph. */
async function importGraph(): Promise<Metafile> {
  const result = await build({
    absWorkingDir: extension,
    entryPoints: manifest.commands.map((c) => `src/${c.name}.tsx`),
    bundle: true,
    platform: "node",
    target: "node22",
    write: false,
    outdir: "out",
    metafile: true,
    logLevel: "silent",
    external: ["@raycast/api", "react", "react-devtools-raycast", "@parcel/source-map"],
    // keep a forbidden import in the graph (as external) instead of failing the bundle, so the test can name it
    plugins: [
      { name: "keep-forbidden", setup: (b) => b.onResolve({ filter: FORBIDDEN }, (args) => ({ path: args.path, external: true })) },
    ],
  });
  return result.metafile;
}

describe("what the extension can reach", () => {
  it("contains no native addon: no better-sqlite3, classic-level, keytar or @napi-rs/keyring, no .node file", async () => {
    const graph = await importGraph();
    const files = Object.keys(graph.inputs);
    expect(files.some((f) => f.startsWith("../menubar-raycast/"))).toBe(true);
    expect(
      files.filter((f) => /\.node$/.test(f) || /node_modules\/(better-sqlite3|classic-level|leveldown|keytar|@napi-rs\/keyring)\//.test(f)),
    ).toEqual([]);
    const offending = Object.entries(graph.inputs).flatMap(([file, input]) =>
      input.imports.filter((i) => FORBIDDEN.test(i.original ?? i.path)).map((i) => `${file} -> ${i.original ?? i.path}`),
    );
    expect(offending).toEqual([]);
  });

  it("source files of the extension name no native addon, not even in a lazy import", async () => {
    const graph = await importGraph();
    const ours = Object.keys(graph.inputs).filter((f) => !f.includes("node_modules"));
    const pattern =
      /(?:from\s+|import\s+|import\s*\(\s*|require\s*\(\s*)["'](better-sqlite3|classic-level|leveldown|keytar|@napi-rs\/keyring)["']/;
    expect(ours.filter((f) => pattern.test(readFileSync(resolve(extension, f), "utf8")))).toEqual([]);
  });

  it("keeps @raycast/* out of the core: domain/, ports/, adapters/, providers/, presentation/, library/, simulator/", () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.tsx?$/.test(entry.name) && /["']@raycast\//.test(readFileSync(path, "utf8"))) offenders.push(relative(repo, path));
      }
    };
    for (const dir of ["domain", "ports", "adapters", "providers", "presentation", "library", "simulator"]) walk(join(repo, dir));
    expect(offenders).toEqual([]);
  });
});
