// Preloaded (node --import) into a quotabar process by test/cli/lazy-loading.test.ts: writes to
// $LOAD_TRAP_FILE the URL of every ES module the process loads, one per line (the hook runs on
// the loader's own thread, hence the file).
import { register } from "node:module";

register("./load-trap-hooks.mjs", import.meta.url, { data: { file: process.env.LOAD_TRAP_FILE } });
