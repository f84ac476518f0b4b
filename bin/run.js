#!/usr/bin/env node
// Answers --version and the root --help before oclif is loaded: they are the commands run most to check an install.
// Everything else: oclif reads oclif.manifest.json and loads only the command that runs (one small
// module of dist/oclif-cli/commands/); the core behind it loads when the command asks for it.
import { readFileSync } from "node:fs";
import module from "node:module";

const args = process.argv.slice(2);
const only = args.length === 1 ? args[0] : undefined;
if (only === "--version" || only === "-v" || only === "version") {
  const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  process.stdout.write(`quotabar/${version} ${process.platform}-${process.arch} node-${process.version}\n`);
} else if (only === "--help" || only === "-h" || only === "help") {
  process.stdout.write(readFileSync(new URL("../dist/oclif-cli/root-help.txt", import.meta.url), "utf8"));
} else {
  // Node >= 22.1 keeps the compiled code of oclif and dist/ on disk (os.tmpdir()) for the next run
  module.enableCompileCache?.();
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= "1"; // package.json engines (node >= 20) is checked by npm
  const { runOclif } = await import("../dist/oclif-cli/run-oclif.js");
  await runOclif(args, import.meta.url);
}
