#!/usr/bin/env node
// npm run build: dist/ and oclif.manifest.json. `npm ci` (prepare), npx and the tests' global setup
// run it with --if-stale: nothing is rebuilt when no source changed since the last build.
//
// - JavaScript: esbuild bundles the sources and every pure-JS dependency (oclif, got, zod,
//   htmlparser2, fast-xml-parser) into a few ES modules with code splitting, so a start-up reads a
//   handful of files instead of hundreds; every dynamic import() stays a lazily loaded chunk. Only
//   the native addons stay external: they are the package's only (optional) runtime dependencies.
// - Commands: one small entry per command (dist/oclif-cli/commands/<topic>/<name>.js, from the table
//   in oclif-cli/commands.ts) and oclif's manifest of them, so a run loads only its own command.
// - What bin/run.cjs answers without oclif (`providers`, `bar`, `cost`, the default command): CommonJS
//   copies in dist/cjs/ with a build id for their code cache (writeCommonJsCopies below).
// - The library: dist/index.js (the providers' descriptors are data; a provider's code loads only
//   when a fetch needs it: providers/registry.ts); types: tsc's declarations (dist/index.d.ts and what it references).
// - Source maps (dist/**/*.js.map, sources inside): NODE_OPTIONS=--enable-source-maps maps stack
//   traces back to the TypeScript in a clone (off by default: reading the maps costs ~30 ms a run).
//   They stay out of the npm package (package.json "files"): two thirds of its size, for developers.
// - Whitespace and syntax are minified (a third less to parse and hold in memory each run); names
//   are kept, so a trace without the maps still names every function.
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

const ROOT = join(import.meta.dirname, "..");
const FINAL = join(ROOT, "dist");
const MANIFEST = join(ROOT, "oclif.manifest.json");
// built beside, then swapped in: a test run or a CLI reading dist/ meanwhile never sees half a build
const STAGE = join(ROOT, `.dist-build-${process.pid}`);
const DIST = join(STAGE, "dist");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

/** Entry points besides the commands: the library, oclif's runner, the simulator (demo, bench), serve's loop (bench). */
const ENTRIES = {
  index: "index.ts",
  "oclif-cli/run-oclif": "oclif-cli/run-oclif.ts",
  "oclif-cli/serve/start-serve": "oclif-cli/serve/start-serve.ts",
  "simulator/server": "simulator/server.ts",
};
const COMMAND_TABLE = join(ROOT, "oclif-cli", "commands.ts");
const COMMAND_DIR = join(ROOT, "oclif-cli", "commands");

/**
 * Native addons (a .node file next to their JS) are never bundled; nor what oclif requires only to
 * run a plugin's TypeScript sources in development (never installed with quotabar). oclif itself is
 * bundled: one file instead of 158 is ~15 ms and ~7 MiB less per run.
 */
const ALWAYS_EXTERNAL = ["better-sqlite3", "classic-level", "@napi-rs/keyring", "typescript", "ts-node", "tsx", "pnpapi"];

function isNativeAddon(name) {
  const dir = join(ROOT, "node_modules", name);
  if (!existsSync(join(dir, "package.json"))) return false;
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const deps = { ...manifest.dependencies, ...manifest.optionalDependencies };
  return (
    existsSync(join(dir, "binding.gyp")) ||
    existsSync(join(dir, "prebuilds")) ||
    manifest.gypfile === true ||
    manifest.napi !== undefined ||
    "node-gyp-build" in deps ||
    "bindings" in deps
  );
}

const external = [
  ...new Set([...ALWAYS_EXTERNAL, ...Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies }).filter(isNativeAddon)]),
];

/**
 * Inside a bundle, import.meta.url is the chunk's URL. Sources use it to find files beside them
 * (simulator fixtures, createRequire): give each module the URL it had in the unbundled layout,
 * dist/<its path>.js, computed from the chunk's own dist/ at run time.
 */
function rewriteImportMeta(path, text) {
  if (!text.includes("import.meta.")) return text;
  const rel = relative(ROOT, path)
    .replace(/\.tsx?$/, ".js")
    .split("\\")
    .join("/");
  const distRoot = `import.meta.url.slice(0, import.meta.url.lastIndexOf("/dist/") + 6)`;
  const url = `new URL(${JSON.stringify(rel)}, ${distRoot}).href`;
  return text
    .replaceAll("import.meta.url", `(${url})`)
    .replaceAll("import.meta.dirname", `decodeURIComponent(new URL(".", ${url}).pathname.replace(/\\/$/, ""))`)
    .replaceAll("import.meta.filename", `decodeURIComponent(new URL(${url}).pathname)`);
}

/**
 * Two dependencies ask ICU for something at every run, and the first question to ICU pages ~8 MiB of
 * its locale data into the process: got's type checker (@sindresorhus/is) builds two list formatters
 * when it loads, for an error message it may never write; oclif sorts the manifest's command ids with
 * localeCompare (ours are lower-case ASCII, where plain comparison orders them the same). Rewritten
 * here: the formatters are built when first used, the ids compared ordinally. When a new version
 * changes the text, the build warns and keeps the original (same behaviour, more memory).
 */
const DEPENDENCY_PATCHES = [
  {
    file: join("node_modules", "@sindresorhus", "is", "distribution", "index.js"),
    from: `const andFormatter = new Intl.ListFormat('en', { style: 'long', type: 'conjunction' });
const orFormatter = new Intl.ListFormat('en', { style: 'long', type: 'disjunction' });`,
    to: `let andList, orList;
const andFormatter = { format: (items) => (andList ??= new Intl.ListFormat('en', { style: 'long', type: 'conjunction' })).format(items) };
const orFormatter = { format: (items) => (orList ??= new Intl.ListFormat('en', { style: 'long', type: 'disjunction' })).format(items) };`,
  },
  {
    file: join("node_modules", "@oclif", "core", "lib", "config", "plugin.js"),
    from: ".sort((a, b) => a.id.localeCompare(b.id));",
    to: ".sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));",
  },
];

const dependencyPatches = {
  name: "quotabar-dependency-patches",
  setup(build) {
    for (const patch of DEPENDENCY_PATCHES) {
      const path = join(ROOT, patch.file);
      const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      build.onLoad({ filter: new RegExp(`^${escaped}$`) }, () => {
        const text = readFileSync(path, "utf8");
        if (!text.includes(patch.from)) {
          console.warn(`build: ${patch.file} changed; not patched (it will load ICU's locale data at start-up)`);
          return undefined;
        }
        return { contents: text.replace(patch.from, patch.to), loader: "js" };
      });
    }
  },
};

/**
 * Parts of got that load with it but serve options quotabar never sets: its HTTP/2 client
 * (http2-wrapper: node:http2 and a global agent, ~19 ms of every fetching run; no `http2: true`), its
 * response cache (cacheable-request with keyv, http-cache-semantics and normalize-url; no `cache`),
 * its DNS cache (cacheable-lookup; no `dnsCache`) and its multipart encoder (form-data-encoder: a
 * FormData body, which quotabar never sends, is refused as any other body got does not know). The
 * bundle gets stand-ins that say so if one is ever asked for; the HTTPS tests through the built CLI
 * would fail on them.
 */
const UNUSED_GOT_PARTS = {
  "http2-wrapper": `export default { get globalAgent() { return unavailable("HTTP/2 client (http2-wrapper)"); }, auto: () => unavailable("HTTP/2 client (http2-wrapper)") };`,
  "cacheable-request": `export default class CacheableRequest { constructor() { unavailable("response cache (cacheable-request)"); } }
export class CacheError extends Error {}`,
  "cacheable-lookup": `export default class CacheableLookup { constructor() { unavailable("DNS cache (cacheable-lookup)"); } }`,
  "form-data-encoder": `export const isFormData = () => false;
export class FormDataEncoder { constructor() { unavailable("multipart bodies (form-data-encoder)"); } }`,
};

const withoutUnusedGotParts = {
  name: "quotabar-without-unused-got-parts",
  setup(build) {
    const names = Object.keys(UNUSED_GOT_PARTS).map((n) => n.replace(/[-/]/g, "\\$&"));
    build.onResolve({ filter: new RegExp(`^(${names.join("|")})$`) }, (args) => ({ path: args.path, namespace: "quotabar-stub" }));
    build.onLoad({ filter: /.*/, namespace: "quotabar-stub" }, (args) => ({
      contents: `const unavailable = (what) => { throw new Error("quotabar is built without got's " + what); };\n${UNUSED_GOT_PARTS[args.path]}`,
      loader: "js",
    }));
  },
};

/** Our own sources as esbuild reads them: import.meta rewritten (above). */
const sources = {
  name: "quotabar-sources",
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, (args) => {
      if (args.path.startsWith(join(ROOT, "node_modules"))) return undefined;
      const contents = rewriteImportMeta(args.path, readFileSync(args.path, "utf8"));
      return { contents, loader: args.path.endsWith(".tsx") ? "tsx" : "ts" };
    });
  },
};

/** Small entry modules made up by the build: `quotabar-entry:<name>` with the given source. */
const virtualEntries = (modules) => ({
  name: "quotabar-entries",
  setup(build) {
    build.onResolve({ filter: /^quotabar-entry:/ }, (args) => ({ path: args.path, namespace: "quotabar-entry" }));
    build.onLoad({ filter: /.*/, namespace: "quotabar-entry" }, (args) => ({
      contents: modules[args.path.slice("quotabar-entry:".length)],
      loader: "ts",
      resolveDir: ROOT,
    }));
  },
});

const common = {
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external,
  // a bundled CommonJS dependency may require() a Node built-in
  banner: { js: `import { createRequire as __quotabarRequire } from "node:module"; const require = __quotabarRequire(import.meta.url);` },
  logLevel: "warning",
  minifyWhitespace: true,
  minifySyntax: true, // names stay (no minifyIdentifiers): stack traces read as the sources do
};

/**
 * What the build needs to know from the sources before bundling them: which module defines each
 * command of the table in oclif-cli/commands.ts (so each command gets its own entry). Learnt by running them, once. The
 * root help (dist/oclif-cli/root-help.txt, printed by bin/run.cjs without loading oclif) is written
 * here too, so the build step that needs every command stays out of dist/'s chunks.
 */
async function probe() {
  const files = readdirSync(COMMAND_DIR).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
  const out = join(STAGE, "probe", "dist"); // a dist/ of its own: import.meta.dirname (above) needs one
  await esbuild.build({
    ...common,
    entryPoints: {
      table: COMMAND_TABLE,
      "oclif-cli/write-root-help": join(ROOT, "oclif-cli", "write-root-help.ts"),
      ...Object.fromEntries(files.map((f) => [`command-${f.replace(/\.tsx?$/, "")}`, join(COMMAND_DIR, f)])),
    },
    outdir: out,
    splitting: true,
    plugins: [sources],
  });
  run([join(out, "oclif-cli", "write-root-help.js")]);
  mkdirSync(join(DIST, "oclif-cli"), { recursive: true });
  copyFileSync(join(out, "oclif-cli", "root-help.txt"), join(DIST, "oclif-cli", "root-help.txt"));
  const load = (name) => import(pathToFileURL(join(out, `${name}.js`)).href);
  const { COMMANDS } = await load("table");
  const modules = await Promise.all(files.map(async (f) => [join(COMMAND_DIR, f), await load(`command-${f.replace(/\.tsx?$/, "")}`)]));
  const commands = Object.entries(COMMANDS).map(([id, command]) => {
    const defining = modules.find(([, m]) => m.default === command) ?? modules.find(([, m]) => Object.values(m).includes(command));
    if (!defining) return { id, source: null, exported: null };
    const [source, m] = defining;
    return { id, source, exported: m.default === command ? "default" : Object.keys(m).find((k) => m[k] === command) };
  });
  return { commands };
}

/**
 * dist/oclif-cli/commands/<topic>/<name>.js for each id of the table: oclif's `pattern` layout, so
 * oclif finds the same ids by itself should the manifest be missing.
 */
function commandEntries(commands) {
  const entries = {};
  const modules = {};
  for (const { id, source, exported } of commands) {
    const name = `command:${id}`;
    entries[`oclif-cli/commands/${id.split(":").join("/")}`] = `quotabar-entry:${name}`;
    modules[name] = source
      ? `export { ${exported} as default } from ${JSON.stringify(source)};`
      : // defined elsewhere than oclif-cli/commands/: correct, but it loads the whole table
        `import { COMMANDS } from ${JSON.stringify(COMMAND_TABLE)};\nexport default COMMANDS[${JSON.stringify(id)}];`;
    if (!source) console.warn(`build: command ${id} is not defined in oclif-cli/commands/; it will load every command`);
  }
  return { entries, modules };
}

/** What bin/run.cjs answers without oclif (`providers`, `bar`, the default command), and its code cache: dist/cjs/ only. */
const PLAIN_ENTRIES = [
  "oclif-cli/providers-plain",
  "oclif-cli/bar-plain",
  "oclif-cli/usage-plain",
  "oclif-cli/cost-plain",
  "oclif-cli/code-cache",
];

/**
 * dist/cjs/: CommonJS copies of the plain entries and of every chunk they may load (statically or
 * with import()), which bin/run.cjs require()s. Node 20 loads the same graph sooner as CommonJS
 * than as ES modules (its ES loader resolves, links and compiles each module through its async
 * hooks), and a code cache can keep what V8 compiled (oclif-cli/code-cache.ts). The entries are
 * split on their own (fewer, larger chunks than beside every command and the library: 32 modules
 * for a refresh instead of 39); each module is then converted alone (imports of sibling modules
 * stay imports of their copies), so lazily loaded chunks stay lazy; the source maps chain back.
 * The library, oclif and its commands stay ES modules. dist/cjs/build-id names this build for the
 * code cache (oclif-cli/code-cache.ts): a new build never reads the code an earlier one compiled to.
 */
async function writeCommonJsCopies() {
  const plainDist = join(STAGE, "plain", "dist"); // a dist/ of its own: import.meta.dirname (above) needs one
  const plain = await esbuild.build({
    ...common,
    banner: {}, // no createRequire of their own: the CommonJS copies have require()
    entryPoints: Object.fromEntries(PLAIN_ENTRIES.map((entry) => [entry, join(ROOT, `${entry}.ts`)])),
    outdir: plainDist,
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    sourcemap: "linked",
    sourcesContent: true,
    plugins: [sources, dependencyPatches, withoutUnusedGotParts],
    metafile: true,
  });
  const wanted = Object.keys(plain.metafile.outputs)
    .filter((file) => file.endsWith(".js"))
    .map((file) => resolve(file));
  await esbuild.build({
    ...common,
    entryPoints: wanted.map((file) => ({ in: file, out: relative(plainDist, file).replace(/\.js$/, "") })),
    outdir: join(DIST, "cjs"),
    outExtension: { ".js": ".cjs" },
    format: "cjs",
    supported: { "dynamic-import": false }, // import() of a sibling becomes require() of its copy
    define: { "import.meta.url": "__quotabarModuleUrl" },
    banner: { js: MODULE_URL_BANNER },
    sourcemap: "linked",
    sourcesContent: true,
    plugins: [
      {
        name: "quotabar-sibling-copies",
        setup(build) {
          build.onResolve({ filter: /^\.\.?\// }, (args) =>
            args.kind === "entry-point" ? undefined : { path: args.path.replace(/\.js$/, ".cjs"), external: true },
          );
        },
      },
    ],
  });
  for (const file of readdirSync(join(DIST, "cjs"), { recursive: true })) {
    if (!file.endsWith(".cjs")) continue;
    withLighterNamespaces(join(DIST, "cjs", file));
    withModuleUrlOnlyIfUsed(join(DIST, "cjs", file));
  }
  writeFileSync(join(DIST, "cjs", "build-id"), `${randomUUID()}\n`);
}

/** The banner's URL (a pathToFileURL per module) where a module reads import.meta.url; a blank line elsewhere (the maps' lines stay). */
const MODULE_URL_BANNER = `var __quotabarModuleUrl = require("node:url").pathToFileURL(__filename).href;`;

function withModuleUrlOnlyIfUsed(file) {
  const text = readFileSync(file, "utf8");
  if (!text.startsWith(`${MODULE_URL_BANNER}\n`))
    throw new Error(`build: ${relative(ROOT, file)} does not start with the module URL banner`);
  if (text.split("__quotabarModuleUrl").length === 2) writeFileSync(file, text.slice(MODULE_URL_BANNER.length));
}

/**
 * esbuild's CommonJS output reads `import http from "node:http"` (and every import() of a sibling)
 * through __toESM, which copies each property of the module into a new object as a getter: ~100
 * closures for node:process or node:zlib, at every such import of every run. An object that
 * inherits from the module reads the same values (live, as the getters were) for nothing. Swapped
 * in at the same length (the source maps' columns stay right); only for the form seen here, every
 * call in Node's mode (`__toESM(require(...), 1)`: the default import is the module itself), and the
 * build fails if esbuild ever writes something else.
 */
const ESBUILD_TO_ESM =
  '__toESM=(mod,isNodeMode,target)=>(target=mod!=null?__create(__getProtoOf(mod)):{},__copyProps(isNodeMode||!mod||!mod.__esModule?__defProp(target,"default",{value:mod,enumerable:!0}):target,mod))';
const LIGHTER_TO_ESM = "__toESM=mod=>__create(mod,{default:{value:mod,enumerable:!0}})".padEnd(ESBUILD_TO_ESM.length);

function withLighterNamespaces(file) {
  const text = readFileSync(file, "utf8");
  const uses = text.split("__toESM(").length - 1;
  if (!text.includes("__toESM=") && uses === 0) return;
  const nodeMode = text.match(/__toESM\(require\("[^"]+"\),1\)/g)?.length ?? 0;
  if (text.split(ESBUILD_TO_ESM).length !== 2 || nodeMode !== uses) {
    throw new Error(`build: ${relative(ROOT, file)}: esbuild's __toESM is not the one withLighterNamespaces replaces; look again`);
  }
  writeFileSync(file, text.replace(ESBUILD_TO_ESM, LIGHTER_TO_ESM));
}

/**
 * The cost scan's helper thread (providers/kit/cost/read-helper.ts, started by read-threads.ts): it
 * and all it needs as one CommonJS file beside where read-threads.ts's import.meta.url says it is, so
 * the thread starts by reading one file (~40 ms sooner than loading ES modules and their chunks).
 */
const READ_THREAD = join("providers", "kit", "cost", "read-helper");

async function buildReadThread() {
  await esbuild.build({
    ...common,
    entryPoints: [join(ROOT, `${READ_THREAD}.ts`)],
    outfile: join(DIST, `${READ_THREAD}.cjs`),
    format: "cjs",
    banner: { js: MODULE_URL_BANNER },
    define: { "import.meta.url": "__quotabarModuleUrl" },
    sourcemap: "linked",
    sourcesContent: true,
    plugins: [sources],
  });
}

/**
 * `quotabar serve`'s page (oclif-cli/serve/page/): its script bundled for browsers (one file, no
 * module loader, nothing fetched), beside its HTML, CSS and icon, in dist/oclif-cli/serve/page/,
 * where oclif-cli/serve/page-files.ts reads them.
 */
const SERVE_PAGE = join("oclif-cli", "serve", "page");
const SERVE_PAGE_FILES = ["index.html", "page.css", "favicon.svg"];

async function buildServePage() {
  await esbuild.build({
    entryPoints: [join(ROOT, SERVE_PAGE, "page.ts")],
    outfile: join(DIST, SERVE_PAGE, "page.js"),
    bundle: true,
    format: "iife",
    platform: "browser",
    target: ["chrome111", "firefox113", "safari16.4"],
    logLevel: "warning",
    minify: true,
    legalComments: "none",
  });
  for (const file of SERVE_PAGE_FILES) copyFileSync(join(ROOT, SERVE_PAGE, file), join(DIST, SERVE_PAGE, file));
}

/** oclif.manifest.json, written by oclif itself from the built commands (what `oclif manifest` does). */
async function writeManifest() {
  rmSync(MANIFEST, { force: true });
  const { Plugin } = createRequire(join(ROOT, "package.json"))("@oclif/core");
  const plugin = new Plugin({ root: ROOT, type: "core", isRoot: true, ignoreManifest: true, errorOnManifestCreate: true });
  await plugin.load();
  const tmp = `${MANIFEST}.${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(plugin.manifest, null, 2)}\n`);
  renameSync(tmp, MANIFEST);
  return Object.keys(plugin.manifest.commands).length;
}

/** The maps' sources are relative to where they were written (the staging dir): make them right for dist/. */
function relocateSourceMaps(from, to) {
  for (const entry of readdirSync(from, { recursive: true })) {
    if (!/\.c?js\.map$/.test(entry)) continue;
    const file = join(from, entry);
    const map = JSON.parse(readFileSync(file, "utf8"));
    const [built, final] = [dirname(file), dirname(join(to, entry))];
    map.sources = map.sources.map((source) =>
      /^[a-z-]+:/.test(source) ? source : relative(final, resolve(built, source)).split("\\").join("/"),
    );
    writeFileSync(file, JSON.stringify(map));
  }
}

function run(args) {
  const result = spawnSync(process.execPath, args, { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** When the last build ended. */
const STAMP = join(ROOT, "node_modules", ".cache", "quotabar", "built-at");
/** Where the build's inputs are: every source folder (types-only modules count: tsc reads them), and the build's own files. */
const SOURCES = ["index.ts", "domain", "ports", "providers", "adapters", "library", "oclif-cli", "presentation", "simulator", "schema"];
const BUILD_FILES = ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json", "scripts/build.mjs"];

/** Whether dist/ was built after the last change to every file that could go into it (a stat each: ~10 ms). */
function upToDate() {
  if (!existsSync(MANIFEST) || !existsSync(join(FINAL, "index.js")) || !existsSync(STAMP)) return false;
  const builtAt = statSync(STAMP).mtimeMs;
  const files = SOURCES.flatMap((source) =>
    source.endsWith(".ts") ? [source] : readdirSync(join(ROOT, source), { recursive: true }).map((entry) => join(source, entry)),
  );
  return [...files, ...BUILD_FILES].every(
    (file) => (statSync(join(ROOT, file), { throwIfNoEntry: false })?.mtimeMs ?? Infinity) <= builtAt,
  );
}

// `npm ci` builds through prepare; npx, npm pack and a test run ask again with --if-stale: no second build of the same sources
if (process.argv.includes("--if-stale") && upToDate()) {
  console.log("build: dist/ is up to date (npm run build rebuilds it anyway)");
  process.exit(0);
}

const started = Date.now();
rmSync(STAGE, { recursive: true, force: true });
mkdirSync(DIST, { recursive: true });
process.on("exit", () => rmSync(STAGE, { recursive: true, force: true }));

const { commands } = await probe();
const cli = commandEntries(commands);
const result = await esbuild.build({
  ...common,
  entryPoints: { ...Object.fromEntries(Object.entries(ENTRIES).map(([out, src]) => [out, join(ROOT, src)])), ...cli.entries },
  outdir: DIST,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  sourcemap: "linked",
  sourcesContent: true,
  plugins: [virtualEntries(cli.modules), sources, dependencyPatches, withoutUnusedGotParts],
  metafile: true,
});

await writeCommonJsCopies();
await buildReadThread();
await buildServePage();

// declarations of the library (and of the modules they reference)
run([
  join(ROOT, "node_modules", "typescript", "bin", "tsc"),
  "-p",
  join(ROOT, "tsconfig.build.json"),
  "--emitDeclarationOnly",
  "--outDir",
  DIST,
]);

relocateSourceMaps(DIST, FINAL);
if (existsSync(FINAL)) renameSync(FINAL, join(STAGE, "previous"));
renameSync(DIST, FINAL);
const commandCount = await writeManifest();

// what went into which module (esbuild's metafile), for whoever wonders why a chunk is big
mkdirSync(join(ROOT, "node_modules", ".cache", "quotabar"), { recursive: true });
writeFileSync(join(ROOT, "node_modules", ".cache", "quotabar", "build-meta.json"), JSON.stringify(result.metafile));
writeFileSync(STAMP, "");
utimesSync(STAMP, started / 1000, started / 1000); // a source saved while this build ran is newer: the next one builds
const files = Object.keys(result.metafile.outputs).filter((f) => f.endsWith(".js"));
console.log(`build: dist/ (${files.length} modules, ${commandCount} commands in oclif.manifest.json) in ${Date.now() - started} ms`);
