import { spawn } from "node:child_process";
import { appendFileSync, chmodSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pinTimeZone, tempHome } from "../../../test/helpers/harness.js";
import { agentCost, logCost } from "./cost.js";
import { codexEntry, freshCodexState } from "./codex-logs.js";
import { entryOf } from "./log-entry.js";
import { priceListFromLiteLlm } from "./price-list.js";
import { BUNDLED_PRICES, costNanos, modelKey } from "./prices.js";
import { KEYED_WIDTH, packEntries, unpackEntries } from "./log-index.js";
import { scanLogs } from "./log-scan.js";

// days are local: pinned (the oracle was made in this zone)
pinTimeZone("America/New_York");

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    chmodSafe(dir);
    rmSync(dir, { recursive: true, force: true });
  }
});
function chmodSafe(dir: string) {
  try {
    chmodSync(join(dir, ".claude", "projects", "locked"), 0o700);
  } catch {
    // only the unreadable-folder test locks one
  }
}

const ORACLE = join(import.meta.dirname, "fixtures", "oracle");
const NOW = new Date("2026-03-20T16:00:00Z");

/** A copy of the oracle logs in a throwaway home (the scan writes its index to the home's cache). */
function oracleHome(): string {
  const dir = tempHome();
  dirs.push(dir);
  cpSync(join(ORACLE, "home"), dir, { recursive: true });
  return dir;
}

interface CcusageModel {
  modelName?: string;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  cost?: number;
}
interface CcusageDay extends CcusageModel {
  date: string;
  totalCost?: number;
  costUSD?: number;
  modelBreakdowns?: CcusageModel[];
  models?: Record<string, CcusageModel>;
}

/** ccusage's rows in quotabar's terms: by day, then by priced model name. */
function ccusageRows(doc: { daily: CcusageDay[] }) {
  return doc.daily.map((day) => {
    const models = new Map<
      string,
      { inputTokens: number; outputTokens: number; cacheWriteTokens: number; cacheReadTokens: number; cost: number }
    >();
    const list = day.modelBreakdowns ?? Object.entries(day.models ?? {}).map(([modelName, m]) => ({ ...m, modelName }));
    for (const m of list) {
      const row = models.get(modelKey(m.modelName ?? "")) ?? {
        inputTokens: 0,
        outputTokens: 0,
        cacheWriteTokens: 0,
        cacheReadTokens: 0,
        cost: 0,
      };
      row.inputTokens += m.inputTokens;
      row.outputTokens += m.outputTokens;
      row.cacheWriteTokens += m.cacheCreationTokens;
      row.cacheReadTokens += m.cacheReadTokens;
      row.cost += m.cost ?? 0;
      models.set(modelKey(m.modelName ?? ""), row);
    }
    return { date: day.date, cost: day.totalCost ?? day.costUSD ?? 0, day, models };
  });
}

async function expectAgreement(agent: "claude" | "codex", doc: { daily: CcusageDay[] }, home: string) {
  const cost = await logCost({ env: { HOME: home }, now: NOW, agents: [agent], since: "2026-01-01", until: "2026-12-31" });
  const theirs = ccusageRows(doc);
  expect(cost.report.days.map((d) => d.date)).toEqual(theirs.map((d) => d.date));
  for (const [i, ours] of cost.report.days.entries()) {
    const { day, cost: usd, models } = theirs[i]!;
    expect({
      date: ours.date,
      input: ours.inputTokens,
      output: ours.outputTokens,
      write: ours.cacheWriteTokens,
      read: ours.cacheReadTokens,
    }).toEqual({
      date: day.date,
      input: day.inputTokens,
      output: day.outputTokens,
      write: day.cacheCreationTokens,
      read: day.cacheReadTokens,
    });
    expect(Math.abs((ours.costUsd ?? 0) - usd), `${ours.date}: ${ours.costUsd} against ${usd}`).toBeLessThan(0.005);
    const byModel = new Map<
      string,
      { inputTokens: number; outputTokens: number; cacheWriteTokens: number; cacheReadTokens: number; cost: number }
    >();
    for (const m of ours.models) {
      const row = byModel.get(m.model) ?? { inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0, cost: 0 };
      row.inputTokens += m.inputTokens;
      row.outputTokens += m.outputTokens;
      row.cacheWriteTokens += m.cacheWriteTokens;
      row.cacheReadTokens += m.cacheReadTokens;
      row.cost += m.costUsd ?? 0;
      byModel.set(m.model, row);
    }
    expect([...byModel.keys()].sort()).toEqual([...models.keys()].sort());
    for (const [model, row] of byModel) {
      const their = models.get(model)!;
      expect({ ...row, cost: 0 }, `${ours.date} ${model}`).toEqual({ ...their, cost: 0 });
      // Codex's daily report has no per-model cost: the day's total is checked above
      if (agent === "claude") expect(Math.abs(row.cost - their.cost), `${ours.date} ${model}`).toBeLessThan(0.005);
    }
  }
  return cost;
}

/*
 * The oracle: fixtures/oracle/home holds logs written by fixtures/make-oracle-logs.py (streamed
 * chunks, a sub-agent file, Vertex and Bedrock ids, one-hour cache writes, Codex events without
 * last_token_usage, re-emitted totals, dated and `openai/` ids, a model without a price), and
 * fixtures/oracle/ccusage-<agent>-daily.json is what the native ccusage 20.0.24
 * (npm ccusage@20.0.24 + @ccusage/ccusage-linux-x64) printed for them:
 * `HOME=$PWD/home TZ=America/New_York ccusage <agent> daily --json --offline --breakdown`.
 */
describe("cost: agrees with ccusage 20.0.24 day by day and model by model", () => {
  it("Claude Code: every backend, streamed chunks counted once, sub-agent files included", async () => {
    const doc = JSON.parse(readFileSync(join(ORACLE, "ccusage-claude-daily.json"), "utf8"));
    const cost = await expectAgreement("claude", doc, oracleHome());
    expect(new Set(cost.report.models.map((m) => m.backend))).toEqual(new Set(["anthropic", "vertexai", "bedrock"]));
    expect(cost.report.unpricedModels.map((m) => m.model)).toEqual(["claude-nonesuch-1"]);
    expect(cost.report.unpricedModels[0]!.totalTokens).toBeGreaterThan(0);
    expect(cost.report.unpricedModels[0]!.costUsd).toBeNull();
    expect(cost.skippedLines).toBe(0);
  });

  it("Codex: per-event deltas, re-emitted counts skipped, dated and openai/ ids as their base model", async () => {
    const doc = JSON.parse(readFileSync(join(ORACLE, "ccusage-codex-daily.json"), "utf8"));
    const cost = await expectAgreement("codex", doc, oracleHome());
    expect(cost.report.models.every((m) => m.agent === "codex" && m.backend === "openai")).toBe(true);
    expect(cost.report.unpricedModels.map((m) => m.model)).toEqual(["codex-mini-latest"]);
  });

  it("--by session: each session's rows, the same totals", async () => {
    const home = oracleHome();
    const byDay = await logCost({ env: { HOME: home }, now: NOW, agents: ["claude"], since: "2026-01-01" });
    const bySession = await logCost({ env: { HOME: home }, now: NOW, agents: ["claude"], since: "2026-01-01", by: "session" });
    expect(bySession.report.days.map((d) => d.date)).toEqual([
      "5f1c2a9e-0b7d-4c55-9e0a-1d2b3c4d5e6f",
      "9a8b7c6d-1111-4222-8333-444455556666",
    ]);
    expect(bySession.report.total).toEqual(byDay.report.total);
  });

  it("a warm run reads nothing and gives the same document; an appended line is read alone", async () => {
    const home = oracleHome();
    const env = { HOME: home };
    const cold = await logCost({ env, now: NOW, since: "2026-01-01" });
    expect(await scanLogs("claude", env)).toMatchObject({ filesRead: 0, bytesRead: 0 });
    expect(await logCost({ env, now: NOW, since: "2026-01-01" })).toEqual(cold);
    const line = `${answer({ id: "appended", at: "2026-03-07T12:00:00.000Z" })}\n`;
    appendFileSync(join(home, ".config", "claude", "projects", "-home-ada-src-lib", "9a8b7c6d-1111-4222-8333-444455556666.jsonl"), line);
    expect(await scanLogs("claude", env)).toMatchObject({ filesRead: 1, bytesRead: Buffer.byteLength(line) });
    const warm = await logCost({ env, now: NOW, since: "2026-01-01" });
    expect(warm.report.total.totalTokens - cold.report.total.totalTokens).toBe(1100);
  });

  it("records past an entry's size are split by path: the next run reads only what changed, a damaged shard only its own files", async () => {
    // the store refuses an entry over 16 MB; a shard of 2 KB stands for it here (each file's record is about 1 KB)
    const shardBytes = 2048;
    const home = tempHome();
    dirs.push(home);
    const dir = join(home, ".claude", "projects", "p");
    mkdirSync(dir, { recursive: true });
    const paths = Array.from({ length: 24 }, (_, f) => join(dir, `s-${f}.jsonl`));
    for (const [f, path] of paths.entries())
      writeFileSync(path, Array.from({ length: 10 }, (_, i) => answer({ id: `${f}-${i}` })).join("\n") + "\n");
    const env = { HOME: home };
    const requests = (scan: { days: Record<string, Record<string, number[]>> }) =>
      Object.values(scan.days).reduce((n, rows) => Object.values(rows).reduce((m, a) => m + a[5]!, n), 0);

    expect(await scanLogs("claude", env, { shardBytes })).toMatchObject({ filesRead: 24 });
    const cache = join(home, ".cache", "quotabar", "cost-logs");
    const { shards } = JSON.parse(readFileSync(join(cache, "claude.json"), "utf8")) as { shards: number };
    const shardFiles = Array.from({ length: shards }, (_, i) => join(cache, `claude-files-${i}.json`));
    const sizes = shardFiles.map((file) => readFileSync(file).length);
    expect(sizes.reduce((a, b) => a + b)).toBeGreaterThan(4 * shardBytes);
    expect(shards).toBeGreaterThanOrEqual(8);
    for (const size of sizes) expect(size).toBeLessThan(4 * shardBytes);

    appendFileSync(paths[0]!, `${answer({ id: "more" })}\n`);
    const warm = await scanLogs("claude", env, { shardBytes });
    expect(warm).toMatchObject({ filesRead: 1, bytesRead: answer({ id: "more" }).length + 1 });
    expect(requests(warm)).toBe(241);

    // one shard damaged: its files are read again, the others' records serve
    const damaged = shardFiles.find((file) => readFileSync(file, "utf8").includes("s-5.jsonl"))!;
    const lost = Object.keys((JSON.parse(readFileSync(damaged, "utf8")) as { files: object }).files);
    writeFileSync(damaged, '{"generation":"other","files":{}}');
    appendFileSync(paths[5]!, `${answer({ id: "again" })}\n`);
    const healed = await scanLogs("claude", env, { shardBytes });
    expect(healed.filesRead).toBe(lost.length);
    expect(lost.length).toBeLessThan(24);
    expect(requests(healed)).toBe(242);
    // at the default size the records fit one shard: those past it are removed
    appendFileSync(paths[1]!, `${answer({ id: "last" })}\n`);
    expect(await scanLogs("claude", env)).toMatchObject({ filesRead: 1 });
    expect(shardFiles.slice(1).filter((file) => existsSync(file))).toEqual([]);
  });

  it("the summary keeps quarter hours for the last days before the newest request, requests with ids included", async () => {
    const { home } = claudeHome([
      answer({ id: "old", at: "2026-01-02T10:00:00.000Z" }),
      answer({ id: "new", at: "2026-01-20T10:00:00.000Z" }),
    ]);
    await tokens(home);
    const summary = JSON.parse(readFileSync(join(home, ".cache", "quotabar", "cost-logs", "claude.json"), "utf8")) as { recent: object };
    expect(Object.keys(summary.recent).map((quarter) => new Date(Number(quarter) * 15 * 60_000).toISOString())).toEqual([
      "2026-01-20T10:00:00.000Z",
    ]);
  });

  const ccusage = findCcusage();
  it.skipIf(!ccusage)("the installed ccusage agrees on the same logs (skipped when ccusage is not on PATH or in CCUSAGE_BIN)", async () => {
    for (const agent of ["claude", "codex"] as const) {
      const home = oracleHome();
      const out = await run(ccusage!, [agent, "daily", "--json", "--offline", "--breakdown"], {
        HOME: home,
        TZ: "America/New_York",
        PATH: process.env.PATH ?? "",
      });
      await expectAgreement(agent, JSON.parse(out), home);
    }
  });
});

function findCcusage(): string | null {
  if (process.env.CCUSAGE_BIN) return process.env.CCUSAGE_BIN;
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    try {
      readFileSync(join(dir, "ccusage"));
      return join(dir, "ccusage");
    } catch {
      // not here
    }
  }
  return null;
}

function run(bin: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`ccusage exited ${code}`))));
  });
}

/** A line of Claude Code's log. */
function answer(fields: { id?: string; model?: string; at?: string; usage?: unknown } = {}): string {
  return JSON.stringify({
    type: "assistant",
    sessionId: "s-1",
    requestId: `req_${fields.id ?? "1"}`,
    timestamp: fields.at ?? "2026-03-20T12:00:00.000Z",
    message: {
      id: `msg_${fields.id ?? "1"}`,
      model: fields.model ?? "claude-sonnet-4-5-20250929",
      usage: fields.usage ?? { input_tokens: 1000, output_tokens: 100 },
    },
  });
}

function claudeHome(lines: string[], name = "s-1.jsonl"): { home: string; path: string } {
  const home = tempHome();
  dirs.push(home);
  const dir = join(home, ".claude", "projects", "p");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, lines.join("\n"));
  return { home, path };
}

const tokens = async (home: string) => {
  const cost = await logCost({ env: { HOME: home }, now: NOW, agents: ["claude"] });
  return {
    total: cost.report.total.totalTokens,
    requests: cost.report.total.requests,
    skipped: cost.skippedLines,
    unreadable: cost.unreadableFiles,
  };
};

describe("cost: bad input is skipped and counted, never a crash or a wrong total", () => {
  it("a truncated last line, non-object JSON, negative, string and fractional counts, invalid UTF-8", async () => {
    const good = answer({ id: "a" });
    const { home, path } = claudeHome([
      good,
      "[1,2,3]",
      '["x",{"usage":{"input_tokens":5}}]',
      answer({ id: "b", usage: { input_tokens: -5, output_tokens: 10 } }),
      answer({ id: "c", usage: { input_tokens: "100", output_tokens: 10 } }),
      answer({ id: "d", usage: { input_tokens: 1.5, output_tokens: 10 } }),
      '{"type":"assistant","usage":{' + "\u0000",
      answer({ id: "e" }).slice(0, -20),
    ]);
    // the cut last line counts as skipped until it is whole
    expect(await tokens(home)).toEqual({ total: 1100, requests: 1, skipped: 6, unreadable: 0 });
    // invalid UTF-8 inside a string value: the line is still read, with its counts
    appendFileSync(
      path,
      Buffer.concat([Buffer.from("\n"), Buffer.from(answer({ id: "f" }).replace('"s-1"', '"s-\u00ff"'), "latin1"), Buffer.from("\n")]),
    );
    expect(await tokens(home)).toMatchObject({ total: 2200, requests: 2, skipped: 6 });
  });

  it("a 5 MB line is read (streamed, not skipped when whole); a line past the cap is skipped and counted", async () => {
    const big = JSON.stringify({ ...JSON.parse(answer({ id: "big" })), toolUseResult: { stdout: "x".repeat(5 << 20) } });
    const garbage = `{"usage": ${"y".repeat(5 << 20)}`;
    const { home } = claudeHome([big, garbage, ""]);
    expect(await tokens(home)).toEqual({ total: 1100, requests: 1, skipped: 1, unreadable: 0 });
  });

  it.skipIf(process.getuid?.() === 0)("an unreadable folder is counted and the rest is read", async () => {
    const { home } = claudeHome([answer()]);
    const locked = join(home, ".claude", "projects", "locked");
    mkdirSync(locked);
    writeFileSync(join(locked, "x.jsonl"), answer({ id: "z" }));
    chmodSync(locked, 0);
    expect(await tokens(home)).toMatchObject({ total: 1100, unreadable: 1 });
  });

  it("a file replaced by another (rewritten, same name): its cache entry is dropped and the new file read whole", async () => {
    const { home, path } = claudeHome([answer({ id: "a" }), answer({ id: "b" })]);
    expect(await tokens(home)).toMatchObject({ requests: 2 });
    writeFileSync(
      path,
      [answer({ id: "c", usage: { input_tokens: 7, output_tokens: 3 } }), answer({ id: "d" }), answer({ id: "e" })].join("\n") + "\n",
    );
    expect(await tokens(home)).toMatchObject({ requests: 3, total: 10 + 2200 });
  });

  it("a file replaced while it is read: no crash, and the next run counts the new file alone", async () => {
    const lines = Array.from({ length: 4000 }, (_, i) => answer({ id: `old${i}` }));
    const { home, path } = claudeHome(lines);
    const replacement = `${path}.new`;
    writeFileSync(replacement, `${answer({ id: "new", usage: { input_tokens: 5, output_tokens: 5 } })}\n`);
    // the rename lands somewhere during the scan (or before or after it): any of these must hold up
    const scanning = tokens(home);
    renameSync(replacement, path);
    await scanning;
    expect(await tokens(home)).toMatchObject({ total: 10, requests: 1, skipped: 0 });
  });

  it("a damaged cache is not trusted", async () => {
    const { home } = claudeHome([answer()]);
    await tokens(home);
    const cache = join(home, ".cache", "quotabar", "cost-logs");
    writeFileSync(join(cache, "claude.json"), '{"version":3,"prices":"x","sums":{"1":{"r":[-1]}}}');
    writeFileSync(join(cache, "claude-files-0.json"), "not json");
    expect(await tokens(home)).toMatchObject({ total: 1100, requests: 1 });
  });

  it("a file's cache entry whose answers name a row it does not hold is dropped, and the file read again", async () => {
    const { home, path } = claudeHome([answer()]);
    await tokens(home);
    const files = join(home, ".cache", "quotabar", "cost-logs", "claude-files-0.json");
    const kept = JSON.parse(readFileSync(files, "utf8")) as { files: Record<string, { rows: string[]; keyed: string }> };
    const record = Object.values(kept.files)[0]!;
    expect(record.rows).toHaveLength(1);
    // [hash, quarter, row, sidechain, ...amounts]
    const keyed = unpackEntries(record.keyed)!;
    expect(keyed).toHaveLength(KEYED_WIDTH);
    keyed[2] = 7;
    record.keyed = packEntries(keyed);
    writeFileSync(files, JSON.stringify(kept));
    appendFileSync(path, `\n${answer({ id: "2" })}\n`);
    expect(await tokens(home)).toMatchObject({ total: 2200, requests: 2, skipped: 0 });
  });
});

describe("cost: pricing", () => {
  it("a Claude request over 200,000 prompt tokens is billed whole at the long-context rates (ccusage bills only the part past 200,000)", () => {
    const t = { input: 250_000, output: 1000, cacheWrite: 0, cacheRead: 0, cacheWrite1h: 0 };
    expect(costNanos("claude-sonnet-4-5-20250929", t)).toBe(250_000 * 6000 + 1000 * 22_500);
    expect(costNanos("claude-sonnet-4-5-20250929", { ...t, input: 200_000 })).toBe(200_000 * 3000 + 1000 * 15_000);
    expect(costNanos("claude-opus-4-6", t)).toBe(250_000 * 5000 + 1000 * 25_000);
  });

  it("one-hour cache writes at twice the input rate; Bedrock cross-region profiles of 4.5 models at 1.1x", () => {
    const t = { input: 10, output: 1000, cacheWrite: 3000, cacheRead: 5000, cacheWrite1h: 2000 };
    expect(costNanos("claude-sonnet-4-5-20250929", t)).toBe(32_280_000); // ccusage: $0.03228
    const m = { input: 100_000, output: 100_000, cacheWrite: 0, cacheRead: 0, cacheWrite1h: 0 };
    expect(costNanos("us.anthropic.claude-sonnet-4-5-20250929-v1:0", m)).toBe(1_980_000_000);
    expect(costNanos("global.anthropic.claude-sonnet-4-5-20250929-v1:0", m)).toBe(1_800_000_000);
    expect(costNanos("us.anthropic.claude-sonnet-4-20250514-v1:0", m)).toBe(1_800_000_000);
    expect(costNanos("claude-unknown-9", m)).toBeNull();
    // a log's id names a price or a premium only as an own key of the tables
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) expect(costNanos(name, m)).toBeNull();
    expect(costNanos("constructor.anthropic.claude-sonnet-4-5-20250929-v1:0", m)).toBe(1_800_000_000);
  });

  it("Codex: cached part of input, reasoning part of output; long context past 272,000 input for the whole request; no cache-read rate bills cached as input", () => {
    const t = { input: 80_000, output: 1_000_000, cacheWrite: 0, cacheRead: 20_000, cacheWrite1h: 0 };
    expect(costNanos("gpt-5.5", t)).toBe(30_410_000_000);
    expect(costNanos("gpt-5.5-2026-04-23", t)).toBe(30_410_000_000);
    expect(costNanos("openai/gpt-5.5", t)).toBe(30_410_000_000);
    expect(costNanos("gpt-5.4", { ...t, input: 280_000 })).toBe(23_910_000_000);
    expect(costNanos("gpt-5-pro", t)).toBe(121_500_000_000);
    const state = freshCodexState();
    const event = (total: number[], last?: number[]) =>
      entryOf((into) =>
        codexEntry(
          {
            timestamp: "2026-03-20T12:00:00Z",
            type: "event_msg",
            payload: {
              type: "token_count",
              info: {
                total_token_usage: {
                  input_tokens: total[0],
                  cached_input_tokens: total[1],
                  output_tokens: total[2],
                  reasoning_output_tokens: total[3],
                },
                ...(last
                  ? {
                      last_token_usage: {
                        input_tokens: last[0],
                        cached_input_tokens: last[1],
                        output_tokens: last[2],
                        reasoning_output_tokens: last[3],
                      },
                    }
                  : {}),
              },
            },
          },
          state,
          "s",
          into,
        ),
      );
    expect(event([100, 150, 50, 10], [100, 150, 50, 10])).toMatchObject({
      row: { model: "gpt-5" },
      amounts: [0, 50, 0, 100, expect.any(Number), 1, 0],
    });
    expect(event([100, 150, 50, 10], [100, 150, 50, 10])).toBeNull(); // re-emitted
    expect(event([300, 150, 80, 10])).toMatchObject({ amounts: [200, 30, 0, 0, expect.any(Number), 1, 0] }); // total's change
    expect(event([400, 150, -1, 10])).toBe("bad");
  });

  it("a LiteLLM list replaces the table only when whole and sane", () => {
    const litellm = JSON.parse(
      readFileSync(join(import.meta.dirname, "..", "..", "..", "simulator", "fixtures", "prices", "litellm.json"), "utf8"),
    );
    const outcome = priceListFromLiteLlm(JSON.stringify(litellm), "2026-11-01");
    expect(outcome).toMatchObject({ table: { asOf: "2026-11-01" } });
    if ("table" in outcome) expect(outcome.table.models["claude-sonnet-4-5"]).toEqual(BUNDLED_PRICES.models["claude-sonnet-4-5"]);
    expect(priceListFromLiteLlm("<html>", "2026-11-01")).toEqual({ problem: "the answer is not a JSON object" });
    const partial = Object.fromEntries(Object.entries(litellm).filter(([k]) => !k.startsWith("claude-") && !k.startsWith("gpt-5")));
    expect(priceListFromLiteLlm(JSON.stringify(partial), "2026-11-01")).toMatchObject({
      problem: expect.stringMatching(/lacks \d+ of the/),
    });
    const bad = { ...litellm, "gpt-5.5": { ...litellm["gpt-5.5"], input_cost_per_token: "free" } };
    expect(priceListFromLiteLlm(JSON.stringify(bad), "2026-11-01")).toMatchObject({ problem: expect.stringContaining("gpt-5.5") });
  });
});

describe("cost: the function the claude and codex providers call", () => {
  it("today's cost and the cost inside a window [start, end)", async () => {
    const { home } = claudeHome([
      answer({ id: "a", at: "2026-03-20T10:00:00.000Z" }),
      answer({ id: "b", at: "2026-03-20T14:00:00.000Z" }),
      answer({ id: "c", at: "2026-03-19T14:00:00.000Z" }),
    ]);
    const cost = await agentCost("claude", {
      env: { HOME: home },
      now: NOW,
      window: { start: new Date("2026-03-20T11:00:00Z"), end: new Date("2026-03-20T16:00:00Z") },
    });
    expect(cost.today).toMatchObject({ requests: 2, totalTokens: 2200 });
    expect(cost.window).toMatchObject({ requests: 1, totalTokens: 1100 });
    expect(cost.window?.costUsd).toBeCloseTo(0.0045, 9);
  });
});
