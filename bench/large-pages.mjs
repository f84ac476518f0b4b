#!/usr/bin/env node
// npm run bench:pages: the peak memory of every provider's page reader fed a hostile page, each in
// its own process. Prints each figure next to its goal; asserts nothing. Runs from the sources: each
// reader is bundled with esbuild (htmlparser2 included) into a temporary file first, so a child
// process loads only that reader, and its peak RSS is its own (it prints process.resourceUsage()).
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";

const ROOT = join(import.meta.dirname, "..");
const GOAL_MIB = 150;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const execFileAsync = promisify(execFile);

/** Each HTML provider's page reader, called as its wire calls it. */
const READERS = [
  { label: "Amp settings page", from: "providers/amp/settings-page.ts", call: "m.readSettingsPage(page)" },
  { label: "Ollama settings page", from: "providers/ollama/settings-page.ts", call: "m.readSettingsPage(page)" },
  // the web route reads two pages when the first has no usage: the coding-plan page, then the remains API's answer
  {
    label: "MiniMax coding plan (both pages)",
    from: "providers/minimax/page.ts",
    call: 'm.readCodingPlanPage(page, new Date(), "web-cookie"); m.readCodingPlanPage(page, new Date(), "web-cookie")',
  },
  // OpenCode reads an error page's <title> with the kit's parser
  {
    label: "OpenCode error page (kit parsePage)",
    from: "providers/kit/html.ts",
    call: 'm.parsePage(page, "OpenCode")',
  },
];

/**
 * The pages: a tiny one for the floor; the largest page read whole (just under the kit's 50,000
 * nodes: an element and its text are two); half a million `<p>` in 2 MB, what an attacker or a
 * broken proxy can send.
 */
const PAGES = {
  tiny: "'<html><body><p>x</p></body></html>'",
  "24,990 <p> (read)": "'<html><body>' + '<p>x'.repeat(24_990) + '</body></html>'",
  "500,000 <p> (2 MB)": "'<html><body>' + '<p>x'.repeat(500_000) + '</body></html>'",
};

const dir = mkdtempSync(join(tmpdir(), "quotabar-bench-pages-"));
const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`;

/** One child: load the reader, build the page, read it, then print how it ended and its own peak RSS so far. */
async function runChild(bundle, page, call) {
  const script = `
    const m = await import(${JSON.stringify(bundle)});
    const page = ${page};
    let outcome = "read";
    try { ${call}; }
    catch (error) { outcome = \`\${error.code ?? "error"}: \${String(error.message).slice(0, 90)}\`; }
    console.log(JSON.stringify({ outcome, rssKiB: process.resourceUsage().maxRSS }));
  `;
  const { stdout } = await execFileAsync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH },
  });
  return JSON.parse(stdout);
}

try {
  console.log(`Peak RSS of each page reader in its own process (largest of ${RUNS} runs), goal <= ${GOAL_MIB} MiB for every large page`);
  let met = 0;
  let total = 0;
  for (const reader of READERS) {
    const bundle = join(dir, `${reader.from.replaceAll("/", "-")}.mjs`);
    await build({
      entryPoints: [join(ROOT, reader.from)],
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: bundle,
      logLevel: "error",
    });
    console.log(`\n${reader.label}`);
    for (const [name, page] of Object.entries(PAGES)) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await runChild(bundle, page, reader.call));
      const peak = Math.max(...runs.map((r) => r.rssKiB));
      const hostile = name !== "tiny"; // every page but the floor has the goal
      const verdict = hostile ? `goal <= ${GOAL_MIB} MiB   ${peak / 1024 <= GOAL_MIB ? "met" : "NOT MET"}` : "(the floor)";
      if (hostile) {
        total++;
        if (peak / 1024 <= GOAL_MIB) met++;
      }
      console.log(`  ${name.padEnd(20)} ${mib(peak).padStart(10)}   ${verdict}`);
      console.log(`  ${"".padEnd(20)} ${runs[0].outcome}`);
    }
  }
  console.log(`\n${met} of ${total} goals met`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
