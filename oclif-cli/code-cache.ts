import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import type Module from "node:module";
import { basename, dirname, join, sep } from "node:path";
import { Script } from "node:vm";
import * as zlib from "node:zlib";
import { resolveCacheDir } from "../adapters/config/config-path.js";

type ModuleClass = typeof Module;
type Compile = (this: Module, content: string, filename: string) => unknown;
type Wrapper = (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => unknown;

/**
 * require() of a module of dist/cjs/ (bin/run.cjs's plain answers) with V8's code cache for it and
 * for what it loads from there: the bytecode each module compiled to in an earlier run is read back
 * instead of compiled again, ~30 to 45 ms of a refresh on Node 20 (Node 22's
 * module.enableCompileCache does the same for Node's own loader, not before 22.1).
 *
 * Kept in <cache dir>/code/<build>-<node version>-<arch>/<entry>/ (once the cache dir exists), a
 * file per module, written when the process exits by the first run of a build (what V8 compiled by
 * then, the functions compiled lazily included); the folders of older builds beyond the newest four
 * are removed then. A cache V8 refuses (other flags) is written again. Nothing here may fail a run:
 * without a build id (dist/cjs/build-id, written by scripts/build.mjs) or a cache that can be read
 * or written, modules compile as they did; with --enable-source-maps, Node's own loader compiles
 * them (it reads the maps).
 *
 * `Module` is the caller's `module.constructor`: a CommonJS module has Node's Module class at hand,
 * and require("node:module") would also load Node's ES module loader (~1 ms of every run).
 */
export function requireWithCodeCache(Module: ModuleClass, cjsDir: string, request: string): unknown {
  installOnce(Module, cjsDir.endsWith(sep) ? cjsDir : `${cjsDir}${sep}`, basename(request, ".cjs"));
  return Module.createRequire(join(cjsDir, "index.cjs"))(request);
}

let installed = false;

/**
 * `entry` names the folder of the build's cache this run reads and writes: a module's cache holds
 * what the run that wrote it compiled, so a module `providers` wrote would lack most of what a
 * refresh runs in it (and, accepted, would never be written again).
 */
function installOnce(Module: ModuleClass, cjsDir: string, entry: string): void {
  if (installed) return;
  installed = true;
  // --enable-source-maps: Node's own loader, which reads the maps (this one would not); before
  // Node 20.15 no CRC-32 to check a cache file by (below): compiled as without a cache
  if (process.sourceMapsEnabled || CRC32 === undefined) return;
  const build = buildOf(cjsDir);
  if (build === undefined) return;
  const store = join(build, entry);
  const proto = Module.prototype as unknown as { _compile: Compile };
  const compile = proto._compile;
  const fresh: [file: string, script: Script][] = [];
  proto._compile = function (this: Module, content: string, filename: string): unknown {
    if (!filename.startsWith(cjsDir)) return compile.call(this, content, filename);
    const file = join(store, `${filename.slice(cjsDir.length).split(sep).join("~")}.v8`);
    const cachedData = intact(readIfThere(file));
    const script = new Script(Module.wrap(content), { filename, cachedData });
    if (cachedData === undefined || script.cachedDataRejected === true) fresh.push([file, script]);
    const wrapper = script.runInThisContext({ displayErrors: true }) as Wrapper;
    return wrapper.call(this.exports, this.exports, siblingRequire(Module, this), this, filename, dirname(filename));
  };
  process.once("exit", () => {
    if (fresh.length > 0) writeCaches(build, store, fresh);
  });
}

/** What of Node's Module this uses beyond its typings: the cache of loaded modules, and load(). */
type ModuleInternals = ModuleClass & { _cache: Record<string, Module | undefined> };
type Loadable = Module & { load(filename: string): void };

/**
 * The `require` of a module of dist/cjs/: a relative request names a sibling copy, a file the build
 * wrote (`../chunks/chunk-X.cjs`), loaded by its path as Node would load it, without Node's search
 * (stat, realpath, package.json scopes: a few ms over the ~35 modules of a refresh); anything else
 * (node:fs, an addon) goes to Node's own require.
 */
function siblingRequire(Module: ModuleClass, parent: Module): NodeJS.Require {
  const M = Module as ModuleInternals;
  const dir = dirname(parent.filename);
  const require = (request: string): unknown => {
    if (!request.startsWith(".")) return parent.require(request);
    const file = join(dir, request);
    const cached = M._cache[file];
    if (cached !== undefined) return cached.exports;
    const child = new M(file, parent) as Loadable;
    M._cache[file] = child; // before it runs, as Node does: a cycle gets the exports so far
    try {
      child.load(file);
    } catch (error) {
      delete M._cache[file];
      throw error;
    }
    return child.exports;
  };
  // what else a require has, Node's own (nothing in dist/cjs/ uses it: made only if asked)
  const resolve = (request: string, options?: { paths?: string[] }) => Module.createRequire(parent.filename).resolve(request, options);
  return Object.assign(require, { cache: M._cache, resolve }) as unknown as NodeJS.Require;
}

/** This build's folder under the cache dir; undefined when the build has no id. */
function buildOf(cjsDir: string): string | undefined {
  const build = readIfThere(join(cjsDir, "build-id"))?.toString("utf8").trim();
  if (build === undefined || !/^[\w-]+$/.test(build)) return undefined;
  return join(resolveCacheDir(process.env), "code", `${build}-${process.version}-${process.arch}`);
}

/**
 * A cache file is the CRC-32 of V8's data, then the data: V8 checks the data's length and where it
 * came from (V8's version, the source's length, the flags), but a release build does not check its
 * bytes, and bytecode read from a damaged file could do anything. A file that does not match is
 * compiled anew. A checksum for damage, not a signature (whoever can write the cache dir can write
 * its sums too); zlib's, as a status bar's poll never loads node:crypto otherwise (~6 ms here).
 */
const CRC32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
const DIGEST_BYTES = 4;

function digestOf(data: Uint8Array): Buffer {
  const digest = Buffer.alloc(DIGEST_BYTES);
  digest.writeUInt32LE((CRC32 as (data: Uint8Array) => number)(data));
  return digest;
}

function intact(file: Buffer | undefined): Buffer | undefined {
  if (file === undefined || file.length <= DIGEST_BYTES) return undefined;
  const data = file.subarray(DIGEST_BYTES);
  return digestOf(data).equals(file.subarray(0, DIGEST_BYTES)) ? data : undefined;
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function writeCaches(build: string, store: string, fresh: readonly [string, Script][]): void {
  try {
    // inside quotabar's cache dir, once something made it (a refresh): never made for this alone
    const code = dirname(build);
    made(code);
    if (made(build)) keepNewest(code, KEPT_BUILDS);
    made(store);
    for (const [file, script] of fresh) {
      const tmp = `${file}.${process.pid}.tmp`; // whole or not at all, for a poller starting meanwhile
      const data = script.createCachedData();
      try {
        writeFileSync(tmp, Buffer.concat([digestOf(data), data]), { mode: 0o600 });
        renameSync(tmp, file);
      } catch (error) {
        rmSync(tmp, { force: true }); // a full disk leaves no half file behind
        throw error;
      }
    }
  } catch {
    // a cache that cannot be written is only slower next time
  }
}

/**
 * A new build's first run: the folders of earlier builds (or Node versions) beyond the newest few
 * go. Not all of them: two installs used in turn (a global one for the status bar, npx in a
 * shell) would remove each other's at every run.
 */
const KEPT_BUILDS = 4;

function keepNewest(code: string, count: number): void {
  const folders = readdirSync(code).map((name) => ({ path: join(code, name), at: statSync(join(code, name)).mtimeMs }));
  for (const { path } of folders.sort((a, b) => b.at - a.at).slice(count)) rmSync(path, { recursive: true, force: true });
}

/** Makes one folder (not its parents: under /proc a recursive mkdir retries for ever); false when it was there. */
function made(dir: string): boolean {
  try {
    mkdirSync(dir, { mode: 0o700 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}
