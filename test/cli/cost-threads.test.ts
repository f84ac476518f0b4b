import { appendFileSync, cpSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { logCost } from "../../providers/kit/cost/cost.js";
import { writeCodexLogCorpus } from "../../providers/codex/simulator.js";
import { writeClaudeLogCorpus } from "../../providers/vertexai/simulator.js";
import { runProgram } from "../helpers/cli.js";
import { pinTimeZone, tempHome } from "../helpers/harness.js";

/**
 * A cold `quotabar cost` over more than 8 MB of logs reads on two threads (the built CLI's helper,
 * providers/kit/cost/read-threads.ts): its numbers are the one-thread scan's, to the token and the
 * nanodollar, cold, warm and after an append.
 */

pinTimeZone("America/New_York");

const homes: string[] = [];
afterEach(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const BIN = join(import.meta.dirname, "..", "..", "bin", "run.cjs");
// loaded before the CLI (node -r), and so in its helper thread too: tells on stderr how many threads were
// started. With HELPER_LINGERS, the helper stays up after its last answer (as a thread may while it
// winds down): the run must end on the answers, not on the thread's end
const THREAD_PROBE = `
const threads = require("node:worker_threads");
const lingers = process.env.HELPER_LINGERS === "1";
if (threads.isMainThread) {
  let started = 0;
  const Worker = threads.Worker;
  threads.Worker = class extends Worker { constructor(...args) { super(...args); started++; } };
  process.on("exit", () => process.stderr.write("threads started: " + started + "\\n"));
  // a run that waits for nothing ends here rather than hanging the test
  if (lingers) setTimeout(() => process.exit(3), 20_000).unref();
} else if (lingers) setInterval(() => {}, 60_000);
`;

async function cliCost(home: string, probe: string, extraEnv: Record<string, string> = {}) {
  const env = { PATH: process.env.PATH, HOME: home, TZ: "America/New_York", QUOTABAR_SECRET_STORE: "memory", ...extraEnv };
  const run = await runProgram(process.execPath, ["-r", probe, BIN, "cost", "--json", "--since", "2000-01-01"], { env });
  expect(run.code).toBe(0);
  const doc = JSON.parse(run.stdout) as Record<string, unknown>;
  return { doc, threads: Number(/threads started: (\d+)/.exec(run.stderr)?.[1]) };
}

/** The figures both scans must agree on (not when it was made, nor where the logs are). */
const figures = ({ days, total, skippedLines, unreadableFiles, unpricedModels }: Record<string, unknown>) => ({
  days,
  total,
  skippedLines,
  unreadableFiles,
  unpricedModels,
});

describe("quotabar cost on two threads", () => {
  it("counts what one thread counts, cold, warm and after an append", { timeout: 60_000 }, async () => {
    const home = tempHome();
    const twin = tempHome();
    homes.push(home, twin);
    const now = new Date();
    await writeClaudeLogCorpus(join(home, ".claude", "projects"), { files: 8, lines: 2_000, now });
    writeCodexLogCorpus(join(home, ".codex"), 6, 500, now);
    // a line that is not JSON and one cut short: skipped alike
    const [project] = readdirSync(join(home, ".claude", "projects"));
    const log = join(home, ".claude", "projects", project!, readdirSync(join(home, ".claude", "projects", project!))[0]!);
    appendFileSync(log, '{"type":"assistant","message":{"usage":\n');
    cpSync(join(home, ".claude"), join(twin, ".claude"), { recursive: true });
    cpSync(join(home, ".codex"), join(twin, ".codex"), { recursive: true });
    const probe = join(home, "thread-probe.cjs");
    writeFileSync(probe, THREAD_PROBE);

    const oneThread = async () => {
      const { report, ...source } = await logCost({ env: { HOME: twin }, now: new Date(), since: "2000-01-01" });
      return figures({ ...report, ...source });
    };
    const cold = await cliCost(home, probe);
    expect(cold.threads).toBe(1);
    expect(figures(cold.doc)).toEqual(await oneThread());
    expect(cold.doc.skippedLines).toBe(1);

    const warm = await cliCost(home, probe);
    expect(warm.threads).toBe(0); // nothing to read
    expect(figures(warm.doc)).toEqual(figures(cold.doc));

    const more =
      '{"type":"assistant","timestamp":"' +
      now.toISOString() +
      '","requestId":"req_new","message":{"id":"msg_new","model":"claude-opus-4-5","usage":{"input_tokens":7,"output_tokens":3}}}\n';
    appendFileSync(log, more);
    appendFileSync(join(twin, ".claude", "projects", project!, log.split("/").at(-1)!), more);
    const appended = await cliCost(home, probe);
    expect(appended.threads).toBe(0); // a few bytes: read here
    expect(figures(appended.doc)).toEqual(await oneThread());
    expect((appended.doc.total as { requests: number }).requests).toBe((cold.doc.total as { requests: number }).requests + 1);

    // a helper that stays up after its last answer: the run ends on the answers (it once waited for the
    // thread's end, unref'd, and could end first with no output at all)
    rmSync(join(home, ".cache", "quotabar", "cost-logs"), { recursive: true, force: true });
    const lingered = await cliCost(home, probe, { HELPER_LINGERS: "1" });
    expect(lingered.threads).toBe(1);
    expect(figures(lingered.doc)).toEqual(await oneThread());
  });
});
