// Preloaded (node --import) into a quotabar process by test/cli/lazy-loading.test.ts: writes to
// $LOAD_TRAP_FILE the URL of every module the process loads, one per line: the ES modules as the
// loader's hooks see them (they run on the loader's own thread, hence the file), and at exit the
// CommonJS modules require() loaded (bin/run.cjs's plain answers, dist/cjs/) and Node's own public
// modules (`node:crypto`...), from process.moduleLoadList.
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { pathToFileURL } from "node:url";

const file = process.env.LOAD_TRAP_FILE;
register("./load-trap-hooks.mjs", import.meta.url, { data: { file } });
const required = createRequire(import.meta.url).cache;
process.on("exit", () => {
  if (file)
    appendFileSync(
      file,
      [
        ...Object.keys(required).map((path) => pathToFileURL(path).href),
        ...process.moduleLoadList
          .filter((m) => /^NativeModule (?!internal\/)/.test(m))
          .map((m) => `node:${m.slice("NativeModule ".length)}`),
      ]
        .map((line) => `${line}\n`)
        .join(""),
    );
});
