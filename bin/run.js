#!/usr/bin/env node
// Answers --version, the root --help, a plain `providers` (or `providers --json`), `bar` and the
// default command with plain flags (`-p <id> --json`) before oclif is loaded: they are what people run
// to check an install and what status bars, pollers and scripts run, and oclif's load would be a good
// part of their time.
// Everything else: oclif reads oclif.manifest.json and loads only the command that runs (one small
// module of dist/oclif-cli/commands/); the core behind it loads when the command asks for it.
import { readFileSync } from "node:fs";
import module from "node:module";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const only = args.length === 1 ? args[0] : undefined;
const plainProviders = args[0] === "providers" && (args.length === 1 || (args.length === 2 && args[1] === "--json"));

if (only === "--version" || only === "-v" || only === "version") {
  const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  process.stdout.write(`quotabar/${version} ${process.platform}-${process.arch} node-${process.version}\n`);
} else if (only === "--help" || only === "-h" || only === "help") {
  process.stdout.write(readFileSync(new URL("../dist/oclif-cli/root-help.txt", import.meta.url), "utf8"));
} else {
  // Node >= 22.1 keeps the compiled code of oclif and dist/ on disk (os.tmpdir()) for the next run
  module.enableCompileCache?.();
  // the plain answers are CommonJS copies (dist/cjs/, scripts/build.mjs says why), with a code cache
  const cjs = fileURLToPath(new URL("../dist/cjs/", import.meta.url));
  const { requireWithCodeCache } = module.createRequire(import.meta.url)("../dist/cjs/oclif-cli/code-cache.cjs");
  const plain = (name) => requireWithCodeCache(cjs, `./oclif-cli/${name}-plain.cjs`);
  const answered =
    (plainProviders && (await plain("providers").listProvidersPlainly(args.length === 2))) ||
    // a status bar's poll: the kept snapshots and a render, without oclif (oclif-cli/bar-plain.ts)
    (args[0] === "bar" && (await plain("bar").runBarPlainly(args.slice(1)))) ||
    // the default command, as pollers and scripts run it (oclif-cli/usage-plain.ts)
    ((args.length === 0 || args[0] === "usage" || args[0].startsWith("-")) && (await plain("usage").runUsagePlainly(args)));
  if (!answered) {
    process.env.OCLIF_DISABLE_ENGINE_WARNING ??= "1"; // package.json engines (node >= 20) is checked by npm
    const { runOclif } = await import("../dist/oclif-cli/run-oclif.js");
    await runOclif(args, import.meta.url);
  }
}
