import { appendFileSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pinTimeZone, tempHome } from "../../test/helpers/harness.js";
import { claudeLogRoots, claudeEntry } from "../kit/cost/claude-logs.js";
import { vertexCost } from "./cost.js";
import { scanLogs } from "../kit/cost/log-scan.js";
import { answerKey, entryOf, NO_KEY } from "../kit/cost/log-entry.js";
import { costNanos, modelKey } from "../kit/cost/prices.js";
import { recentSession, writeClaudeLogCorpus } from "./simulator.js";

/** The Vertex request a line records (the shared reader, Vertex rows only); undefined when the text is not JSON. */
function vertexEntry(text: string) {
  let line: unknown;
  try {
    line = JSON.parse(text);
  } catch {
    return undefined;
  }
  const entry = entryOf((into) => claudeEntry(line, text, "s", into));
  return entry === "bad" || entry?.row.backend === "vertexai" ? entry : null;
}

// days are local: a zone with daylight saving and an offset, pinned so results do not depend on the machine
pinTimeZone("America/New_York");

const homes: string[] = [];
afterEach(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function home(): string {
  const dir = tempHome();
  homes.push(dir);
  return dir;
}

const NOW = new Date("2026-03-20T16:00:00Z");
const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");
const projects = (dir: string) => join(dir, ".claude", "projects");

/** A line of Claude Code's log: an assistant answer with these fields over a plain one. */
function answer(fields: { id?: string; requestId?: string; model?: string; at?: string; usage?: object; extra?: object } = {}): string {
  return JSON.stringify({
    type: "assistant",
    message: {
      id: fields.id ?? "msg_1",
      model: fields.model ?? "claude-sonnet-4-5@20250929",
      content: [{ type: "text", text: "ok" }],
      usage: fields.usage ?? { input_tokens: 1000, output_tokens: 100 },
    },
    requestId: fields.requestId ?? "req_1",
    timestamp: fields.at ?? "2026-03-20T12:00:00Z",
    ...fields.extra,
  });
}

function writeLog(dir: string, name: string, lines: string[]): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => `${l}\n`).join(""));
  return path;
}

/**
 * The straightforward computation the scan must agree with: read every file whole, parse every
 * line, keep Vertex answers (the @ form, _vrtx_ ids, metadata.provider), the last chunk of each
 * message id + request id per file, priced from the list below in floating point.
 */
const LIST_PRICES: Record<string, { base: number[]; long?: number[] }> = {
  // USD per million tokens: input, output, 5-minute cache write, cache read
  "claude-sonnet-4-5": { base: [3, 15, 3.75, 0.3], long: [6, 22.5, 7.5, 0.6] },
  "claude-opus-4-5": { base: [5, 25, 6.25, 0.5] },
  "claude-haiku-4-5": { base: [1, 5, 1.25, 0.1] },
  "claude-opus-4-1": { base: [15, 75, 18.75, 1.5] },
  "claude-sonnet-4-6": { base: [3, 15, 3.75, 0.3] },
};

interface Plain {
  cost: number;
  tokens: number;
  days: Map<string, { cost: number; tokens: number }>;
  models: Map<string, { cost: number; tokens: number }>;
}

function plainTotals(paths: string[], since: string, until: string): Plain {
  const plain: Plain = { cost: 0, tokens: 0, days: new Map(), models: new Map() };
  for (const path of paths) {
    const kept: { day: string; model: string; tokens: number; cost: number }[] = [];
    const byId = new Map<string, number>();
    for (const text of readFileSync(path, "utf8").split("\n")) {
      let line;
      try {
        line = JSON.parse(text);
      } catch {
        continue;
      }
      const message = line.message;
      if (line.type !== "assistant" || !message?.usage) continue;
      const vertex =
        message.model.includes("@") || `${message.id}${line.requestId}`.includes("_vrtx_") || line.metadata?.provider === "vertexai";
      if (!vertex) continue;
      const u = message.usage;
      const [input, output, write, read] = [
        u.input_tokens,
        u.output_tokens,
        u.cache_creation_input_tokens ?? 0,
        u.cache_read_input_tokens ?? 0,
      ];
      const write1h = u.cache_creation?.ephemeral_1h_input_tokens ?? 0;
      const model = message.model.split("@")[0].replace(/-\d{8}$/, "");
      const price = LIST_PRICES[model];
      const r = price && input + write + read > 200_000 && price.long ? price.long : price?.base;
      const cost = r ? (input * r[0]! + output * r[1]! + (write - write1h) * r[2]! + write1h * 2 * r[0]! + read * r[3]!) / 1e6 : 0;
      const entry = { day: new Date(line.timestamp).toLocaleDateString("sv-SE"), model, tokens: input + output + write + read, cost };
      const key = message.id && line.requestId ? `${message.id}:${line.requestId}` : null;
      if (key !== null && byId.has(key)) kept[byId.get(key)!] = entry;
      else {
        if (key !== null) byId.set(key, kept.length);
        kept.push(entry);
      }
    }
    for (const entry of kept) {
      if (entry.day < since || entry.day > until) continue;
      plain.cost += entry.cost;
      plain.tokens += entry.tokens;
      for (const [map, name] of [
        [plain.days, entry.day],
        [plain.models, entry.model],
      ] as const) {
        const sum = map.get(name) ?? { cost: 0, tokens: 0 };
        map.set(name, { cost: sum.cost + entry.cost, tokens: sum.tokens + entry.tokens });
      }
    }
  }
  return plain;
}

/** The report's figures against the plain ones: tokens exact, USD to the cent, per day and per model too. */
function expectSameFigures(report: Awaited<ReturnType<typeof vertexCost>>["report"], plain: Plain): void {
  expect(report.total.totalTokens).toBe(plain.tokens);
  expect(report.total.costUsd).toBeCloseTo(plain.cost, 2);
  expect(report.days.map((d) => d.date)).toEqual([...plain.days.keys()].sort());
  for (const day of report.days) {
    expect(day.totalTokens, day.date).toBe(plain.days.get(day.date)!.tokens);
    expect(day.costUsd ?? 0, day.date).toBeCloseTo(plain.days.get(day.date)!.cost, 2);
  }
  expect(report.models.map((m) => m.model).sort()).toEqual([...plain.models.keys()].sort());
  for (const model of report.models) {
    expect(model.totalTokens, model.model).toBe(plain.models.get(model.model)!.tokens);
    expect(model.costUsd ?? 0, model.model).toBeCloseTo(plain.models.get(model.model)!.cost, 2);
  }
}

const SINCE = "2026-01-01";

describe("cost from Claude Code logs", () => {
  it("reads the reference session: the _vrtx_ answer once ($0.016989), the @ form priced like the direct one, the direct answer not at all", async () => {
    const dir = home();
    writeLog(join(projects(dir), "-Users-dev-acme"), "session.jsonl", fixture("claude-session.jsonl").trim().split("\n"));
    const { report, found } = await vertexCost({ env: { HOME: dir }, now: NOW, since: "2026-03-01" });
    expect(found).toBe(true);
    // 2026-03-09T22:40:00+01:00 is the afternoon of the 9th in New York
    expect(report.days.map((d) => [d.date, d.models.map((m) => [m.model, m.totalTokens, m.costUsd, m.requests])])).toEqual([
      ["2026-03-09", [["claude-opus-4-5", 1_020, 0.0075, 1]]],
      ["2026-03-10", [["claude-sonnet-4-5", 17_731, 0.016989, 1]]],
    ]);
    expect(report.total).toEqual({
      inputTokens: 912,
      outputTokens: 431,
      cacheWriteTokens: 2_048,
      cacheReadTokens: 15_360,
      totalTokens: 18_751,
      requests: 2,
      costUsd: 0.024489,
    });
  });

  it("totals a generated corpus (10 files x 500 lines) exactly as the straightforward computation does, to the cent", async () => {
    const dir = home();
    const { paths } = await writeClaudeLogCorpus(projects(dir), { files: 10, lines: 500, now: NOW, seed: 7 });
    const { report } = await vertexCost({ env: { HOME: dir }, now: NOW, since: SINCE });
    expect(report.total.requests).toBeGreaterThan(1_000);
    expect(report.unpricedModels).toEqual([]);
    expectSameFigures(report, plainTotals(paths, SINCE, "2026-03-20"));
    // the default span is the last 30 days
    const last30 = await vertexCost({ env: { HOME: dir }, now: NOW });
    expect([last30.report.since, last30.report.until]).toEqual(["2026-02-19", "2026-03-20"]);
    expectSameFigures(last30.report, plainTotals(paths, "2026-02-19", "2026-03-20"));
  });

  it("reads nothing of an unchanged tree, only the appended part of a grown file, all of a rewritten one, and forgets removed files", async () => {
    const dir = home();
    const env = { HOME: dir };
    const { paths, bytes } = await writeClaudeLogCorpus(projects(dir), { files: 10, lines: 500, now: NOW, seed: 11 });
    const check = async () =>
      expectSameFigures((await vertexCost({ env, now: NOW, since: SINCE })).report, plainTotals(paths, SINCE, "2026-03-20"));
    expect(await scanLogs("claude", env)).toMatchObject({ filesRead: 10, bytesRead: bytes, complete: true });
    expect(await scanLogs("claude", env)).toMatchObject({ filesRead: 0, bytesRead: 0 });

    const more = await writeClaudeLogCorpus(join(dir, "more"), { files: 1, lines: 50, now: NOW, seed: 12 });
    appendFileSync(paths[0]!, readFileSync(more.paths[0]!));
    expect(await scanLogs("claude", env)).toMatchObject({ filesRead: 1, bytesRead: more.bytes });
    await check();

    truncateSync(paths[1]!, Math.floor(statSync(paths[1]!).size / 2));
    expect(await scanLogs("claude", env)).toMatchObject({ filesRead: 1, bytesRead: statSync(paths[1]!).size });
    await check();

    unlinkSync(paths[2]!);
    paths.splice(2, 1);
    expect(await scanLogs("claude", env)).toMatchObject({ filesRead: 0 });
    await check();
  });

  it("counts a line being written only once it is whole, and lets a later chunk of an answer replace the one read before", async () => {
    const dir = home();
    const env = { HOME: dir };
    const path = writeLog(projects(dir), "s.jsonl", [answer({ id: "msg_a", usage: { input_tokens: 10, output_tokens: 1 } })]);
    const tokens = async () => (await vertexCost({ env, now: NOW })).report.total.totalTokens;
    expect(await tokens()).toBe(11);
    const next = answer({ id: "msg_b", usage: { input_tokens: 100, output_tokens: 1 } });
    appendFileSync(path, next.slice(0, 40));
    expect(await tokens()).toBe(11);
    appendFileSync(path, `${next.slice(40)}\n`);
    expect(await tokens()).toBe(112);
    // the final chunk of msg_a, written after both were read: it replaces the first
    appendFileSync(path, `${answer({ id: "msg_a", usage: { input_tokens: 10, output_tokens: 500 } })}\n`);
    expect(await tokens()).toBe(611);
    expect((await vertexCost({ env, now: NOW })).report.total.requests).toBe(2);
  });

  it("rebuilds an index that is corrupt; a change of time zone regroups the kept sums without reading", async () => {
    const dir = home();
    const env = { HOME: dir };
    writeLog(projects(dir), "s.jsonl", [answer({ at: "2026-03-20T02:00:00Z" })]);
    expect((await vertexCost({ env, now: NOW })).report.days.map((d) => d.date)).toEqual(["2026-03-19"]);
    writeFileSync(join(dir, ".cache", "quotabar", "cost-logs", "claude.json"), '{"version":3,"stamps":{"x":"big"}}');
    expect(await scanLogs("claude", env)).toMatchObject({ filesRead: 1 });
    // per-file records that are not the summary's: the grown file is read again from its start
    writeFileSync(join(dir, ".cache", "quotabar", "cost-logs", "claude-files-0.json"), '{"generation":"another","files":{}}');
    const path = join(projects(dir), "s.jsonl");
    appendFileSync(path, `${answer({ id: "msg_2", at: "2026-03-20T02:00:00Z" })}\n`);
    expect(await scanLogs("claude", env)).toMatchObject({ filesRead: 1, bytesRead: statSync(path).size });
    expect((await vertexCost({ env, now: NOW })).report.total.requests).toBe(2);
    process.env.TZ = "Asia/Tokyo";
    try {
      expect(await scanLogs("claude", env)).toMatchObject({ filesRead: 0 });
      expect((await vertexCost({ env, now: NOW })).report.days.map((d) => d.date)).toEqual(["2026-03-20"]);
    } finally {
      process.env.TZ = "America/New_York";
    }
  });

  it("looks in every CLAUDE_CONFIG_DIR entry (projects/ added when missing), else in both default folders, each once", async () => {
    const dir = home();
    writeLog(join(dir, "a", "projects", "p"), "1.jsonl", [answer({ id: "m1" })]);
    writeLog(join(dir, "b", "projects", "p"), "2.jsonl", [answer({ id: "m2" })]);
    const env = { HOME: dir, CLAUDE_CONFIG_DIR: ` ${join(dir, "a")} ,${join(dir, "b", "projects")},` };
    expect(claudeLogRoots(env)).toEqual([join(dir, "a", "projects"), join(dir, "b", "projects")]);
    expect((await vertexCost({ env, now: NOW })).report.total.requests).toBe(2);

    writeLog(join(dir, ".config", "claude", "projects", "p"), "3.jsonl", [answer({ id: "m3" })]);
    writeLog(join(projects(dir), "p"), "4.jsonl", [answer({ id: "m4" })]);
    expect((await vertexCost({ env: { HOME: dir }, now: NOW })).report.total.requests).toBe(2);
    // ~/.claude as a link to ~/.config/claude: the same files, counted once
    rmSync(join(dir, ".claude"), { recursive: true });
    symlinkSync(join(dir, ".config", "claude"), join(dir, ".claude"));
    expect((await vertexCost({ env: { HOME: dir }, now: NOW })).report.total.requests).toBe(1);
  });

  it("finds nothing, and says so, where there are no logs or no Vertex entries", async () => {
    const dir = home();
    expect(await vertexCost({ env: { HOME: dir }, now: NOW })).toMatchObject({
      found: false,
      report: { days: [], total: { requests: 0, costUsd: 0 } },
    });
    writeLog(projects(dir), "s.jsonl", [answer({ model: "claude-sonnet-4-5-20250929" })]);
    expect((await vertexCost({ env: { HOME: dir }, now: NOW })).found).toBe(false);
  });

  it("takes seeded demo sessions as ten days of Vertex use", async () => {
    const dir = home();
    writeLog(projects(dir), "s.jsonl", recentSession(NOW).trim().split("\n"));
    const { report } = await vertexCost({ env: { HOME: dir }, now: NOW });
    expect(report.days).toHaveLength(10);
    expect(report.total.costUsd).toBeCloseTo(0.24489, 6);
  });
});

describe("which lines are Vertex requests", () => {
  const entry = (fields: Parameters<typeof answer>[0]) => vertexEntry(answer(fields));

  it("in the spec's order: the @ version separator, the _vrtx_ id marker, then metadata naming Vertex or GCP", () => {
    expect(entry({ model: "claude-opus-4-5@20251101" })).toMatchObject({
      row: { model: "claude-opus-4-5", backend: "vertexai" },
      key: answerKey("msg_1", "req_1"),
    });
    expect(entry({ model: "claude-opus-4-5-20251101" })).toBeNull();
    expect(entry({ model: "claude-opus-4-5-20251101", requestId: "req_vrtx_011CYd8" })).not.toBeNull();
    expect(entry({ model: "claude-opus-4-5-20251101", id: "msg_vrtx_01Hq" })).not.toBeNull();
    for (const extra of [
      { metadata: { provider: "vertexai" } },
      { metadata: { provider: "Google-Vertex" } },
      { request: { settings: [{ gcpRegion: "us-east5" }] } },
      { context: { isVertexAI: false } },
      { client: "claude-code-vertex" },
    ]) {
      expect(entry({ model: "claude-opus-4-5-20251101", extra }), JSON.stringify(extra)).not.toBeNull();
    }
    for (const extra of [{ metadata: { provider: "anthropic" } }, { cwd: "/Users/dev/vertex-demo" }, { metadata: { note: "vertex" } }]) {
      expect(entry({ model: "claude-opus-4-5-20251101", extra }), JSON.stringify(extra)).toBeNull();
    }
  });

  it("never takes what the model wrote (message.content) for metadata", () => {
    const line = JSON.parse(answer({ model: "claude-opus-4-5-20251101" }));
    line.message.content = [{ type: "tool_use", name: "Write", input: { gcpProject: "x", provider: "vertexai" } }];
    expect(vertexEntry(JSON.stringify(line))).toBeNull();
  });

  it("reads whole token counts; a count that is text, negative or a fraction marks the line bad (skipped and counted); skips empty usage; marks broken JSON", () => {
    const usage = {
      input_tokens: 12,
      output_tokens: 0,
      cache_creation_input_tokens: 3,
      cache_read_input_tokens: 4,
      cache_creation: { ephemeral_5m_input_tokens: 3 },
    };
    expect(entry({ usage })).toMatchObject({ amounts: [12, 0, 3, 4, 12 * 3000 + 3 * 3750 + 4 * 300, 1, 0] });
    for (const bad of [
      { input_tokens: "12", output_tokens: 1 },
      { input_tokens: 1, output_tokens: -5 },
      { input_tokens: 1, output_tokens: 4.9 },
    ])
      expect(entry({ usage: bad }), JSON.stringify(bad)).toBe("bad");
    expect(entry({ usage: { input_tokens: 0, output_tokens: 0 } })).toBeNull();
    expect(entry({ at: "yesterday" })).toBe("bad");
    expect(entry({ requestId: "" })).toMatchObject({ key: NO_KEY });
    // as ccusage: a line's usage counts whatever its type says
    expect(vertexEntry(answer().replace('"type":"assistant"', '"type":"user"'))).not.toBeNull();
    expect(vertexEntry('{"type":"assistant","message":')).toBeUndefined();
  });

  it("counts JSON written with spaces too", async () => {
    const dir = home();
    writeLog(projects(dir), "s.jsonl", [JSON.stringify(JSON.parse(answer()), null, 1).replace(/\n/g, " ")]);
    expect((await vertexCost({ env: { HOME: dir }, now: NOW })).report.total.totalTokens).toBe(1_100);
  });
});

describe("prices", () => {
  it("prices the Vertex form like the direct form, with or without its date", () => {
    for (const name of [
      "claude-sonnet-4-5@20250929",
      "claude-sonnet-4-5-20250929",
      "claude-sonnet-4-5",
      "publishers/anthropic/models/claude-sonnet-4-5@20250929",
      "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    ]) {
      expect(modelKey(name), name).toBe("claude-sonnet-4-5");
    }
    expect(modelKey("claude-3-5-sonnet-v2@20241022")).toBe("claude-3-5-sonnet");
    expect(modelKey("claude-opus-4-1-20250805")).toBe("claude-opus-4-1");
    expect(modelKey("claude-sonnet-4@20250514")).toBe("claude-sonnet-4");
  });

  it("gives the reference's worked example, long-context and one-hour cache rates, and no price for an unknown model", () => {
    const tokens = { input: 12, output: 311, cacheWrite: 2048, cacheRead: 15_360, cacheWrite1h: 0 };
    expect(costNanos("claude-sonnet-4-5", tokens)).toBe(16_989_000);
    // over 200k prompt tokens the whole request is billed at the long-context rates
    expect(costNanos("claude-sonnet-4-5", { ...tokens, input: 200_000 })).toBe(200_000 * 6000 + 311 * 22_500 + 2048 * 7500 + 15_360 * 600);
    expect(costNanos("claude-haiku-4-5", { ...tokens, cacheWrite1h: 48 })).toBe(
      12 * 1000 + 311 * 5000 + 2000 * 1250 + 48 * 2000 + 15_360 * 100,
    );
    expect(costNanos("glm-4.6", tokens)).toBeNull();
  });
});
