#!/usr/bin/env node
// Answers --version, the root --help, a plain `providers` (or `providers --json`), `bar`, `cost` and
// the default command with plain flags (`-p <id> --json`) before oclif is loaded: they are what people
// run to check an install and what status bars, pollers and scripts run, and oclif's load would be a
// good part of their time. CommonJS, as what it loads for them (dist/cjs/, scripts/build.mjs says why): an
// ES module here would start Node's ES module loader, ~9 ms of every run.
// Everything else: oclif reads oclif.manifest.json and loads only the command that runs (one small
// module of dist/oclif-cli/commands/); the core behind it loads when the command asks for it.
"use strict";
const { readFileSync } = require("node:fs");
const { join } = require("node:path");
const { pathToFileURL } = require("node:url");

const args = process.argv.slice(2);
const only = args.length === 1 ? args[0] : undefined;
const plainProviders = args[0] === "providers" && (args.length === 1 || (args.length === 2 && args[1] === "--json"));

async function main() {
  if (only === "--version" || only === "-v" || only === "version") {
    const { version } = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8"));
    process.stdout.write(`quotabar/${version} ${process.platform}-${process.arch} node-${process.version}\n`);
    return;
  }
  if (only === "--help" || only === "-h" || only === "help") {
    process.stdout.write(readFileSync(join(__dirname, "..", "dist", "oclif-cli", "root-help.txt"), "utf8"));
    return;
  }
  // Node >= 22.1 keeps the compiled code of oclif and dist/ on disk (os.tmpdir()) for the next run;
  // not asked before 22 (node:module brings Node's ES module loader, ~1 ms a bar poll does without)
  if (Number(process.versions.node.split(".")[0]) >= 22) require("node:module").enableCompileCache?.();
  // the plain answers, with a code cache of their own (oclif-cli/code-cache.ts)
  const cjs = join(__dirname, "..", "dist", "cjs");
  const { requireWithCodeCache } = require("../dist/cjs/oclif-cli/code-cache.cjs");
  const plain = (name) => requireWithCodeCache(module.constructor, cjs, `./oclif-cli/${name}-plain.cjs`);
  const answered =
    (plainProviders && (await plain("providers").listProvidersPlainly(args.length === 2))) ||
    // a status bar's poll: the kept snapshots and a render, without oclif (oclif-cli/bar-plain.ts)
    (args[0] === "bar" && (await plain("bar").runBarPlainly(args.slice(1)))) ||
    // the cost of the assistants' logs (oclif-cli/cost-plain.ts)
    (args[0] === "cost" && (await plain("cost").runCostPlainly(args))) ||
    // the default command, as pollers and scripts run it (oclif-cli/usage-plain.ts)
    ((args.length === 0 || args[0] === "usage" || args[0].startsWith("-")) && (await plain("usage").runUsagePlainly(args)));
  if (!answered) {
    process.env.OCLIF_DISABLE_ENGINE_WARNING ??= "1"; // package.json engines (node >= 20) is checked by npm
    const { runOclif } = await import("../dist/oclif-cli/run-oclif.js");
    await runOclif(args, pathToFileURL(__filename).href);
  } else {
    // a plain answer returns once its output is written and nothing of its own is pending: ending
    // here skips Node's teardown of the heap (a few ms of a status bar's poll); the code cache's
    // exit handler still runs, and process.exitCode, when the answer set one, is the exit code
    process.exit();
  }
}

// a rejection left unhandled ends the run as Node does (the stack on stderr, exit 1); oclif handles its commands' own errors
void main();
