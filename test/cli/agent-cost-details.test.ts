import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claudeUpstream, seedClaudeHome } from "../../providers/claude/simulator.js";
import { codexHomeIn, codexUpstream, writeCodexAuth } from "../../providers/codex/simulator.js";
import { ProviderSimulator } from "../../simulator/server.js";
import { runCli } from "../helpers/cli.js";
import { tempHome } from "../helpers/harness.js";

/**
 * The `claude` and `codex` providers show, beside their quota, what today's work and the current
 * 5-hour window's would have cost at API prices, read from the agent's own logs in the account's
 * home: the same figures `quotabar cost` gives. A request outside today and the window is not in them.
 */
let sim: ProviderSimulator;
const homes: string[] = [];
beforeAll(async () => {
  sim = await ProviderSimulator.start({ providers: [claudeUpstream, codexUpstream], liveDates: true });
});
afterAll(async () => {
  await sim.stop();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

function home(): string {
  const dir = tempHome();
  homes.push(dir);
  return dir;
}

const env = (dir: string) => ({ HOME: dir, TZ: "UTC", QUOTABAR_ORIGIN_MAP: sim.env().QUOTABAR_ORIGIN_MAP, PATH: "/usr/bin:/bin" });
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const costDetails = (stdout: string) =>
  (JSON.parse(stdout) as { providers: { details: { label: string; value: string }[] }[] }).providers[0]!.details.filter((d) =>
    d.label.startsWith("Cost"),
  );

/** One Claude Code answer as its project log holds it (Sonnet 4.5: $3 in, $15 out per million). */
function claudeLine(id: string, at: string, input: number, output: number): string {
  return JSON.stringify({
    type: "assistant",
    sessionId: "5f1c2a9e-0b7d-4c55-9e0a-1d2b3c4d5e6f",
    requestId: `req_${id}`,
    timestamp: at,
    message: { id: `msg_${id}`, model: "claude-sonnet-4-5-20250929", usage: { input_tokens: input, output_tokens: output } },
  });
}

/** One Codex turn as its session log holds it (gpt-5: $1.25 in, $10 out per million). */
function codexLines(at: string, input: number, output: number): string[] {
  const usage = {
    input_tokens: input,
    cached_input_tokens: 0,
    output_tokens: output,
    reasoning_output_tokens: 0,
    total_tokens: input + output,
  };
  return [
    JSON.stringify({ timestamp: at, type: "turn_context", payload: { model: "gpt-5" } }),
    JSON.stringify({
      timestamp: at,
      type: "event_msg",
      payload: { type: "token_count", info: { total_token_usage: usage, last_token_usage: usage } },
    }),
  ];
}

describe("cost details of the agent providers", () => {
  it("claude: today's cost and this session's from ~/.claude/projects, an older request left out", async () => {
    const dir = home();
    seedClaudeHome(dir);
    const project = join(dir, ".claude", "projects", "-home-ada-src-app");
    mkdirSync(project, { recursive: true });
    const lines = [claudeLine("old", ago(30 * 3_600_000), 1_000_000, 0), claudeLine("now", ago(1_000), 100_000, 10_000)];
    writeFileSync(join(project, "5f1c2a9e-0b7d-4c55-9e0a-1d2b3c4d5e6f.jsonl"), `${lines.join("\n")}\n`);
    const run = await runCli(["-p", "claude", "--json"], env(dir));
    expect(run.code, run.stderr).toBe(0);
    expect(costDetails(run.stdout)).toEqual([
      { label: "Cost today", value: "$0.45" },
      { label: "Cost this session", value: "$0.45" },
    ]);
  });

  it("codex: the same from the Codex home's session logs", async () => {
    const dir = home();
    const codexHome = codexHomeIn(dir);
    writeCodexAuth(codexHome);
    const day = new Date().toISOString().slice(0, 10).split("-");
    const sessions = join(codexHome, "sessions", ...day);
    mkdirSync(sessions, { recursive: true });
    const lines = [...codexLines(ago(1_000), 200_000, 20_000)];
    writeFileSync(join(sessions, "rollout-2026-01-01T00-00-00-0198c7a2-5e1f-7c33-9a0b-2f4d6e8a1b00.jsonl"), `${lines.join("\n")}\n`);
    const run = await runCli(["-p", "codex", "--json"], env(dir));
    expect(run.code, run.stderr).toBe(0);
    expect(costDetails(run.stdout)).toEqual([
      { label: "Cost today", value: "$0.45" },
      { label: "Cost this session", value: "$0.45" },
    ]);
  });

  it("shows no cost, and still the quota, where the logs hold no request", async () => {
    const dir = home();
    seedClaudeHome(dir);
    const run = await runCli(["-p", "claude", "--json"], env(dir));
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).providers[0]).toMatchObject({ ok: true, plan: "Max 20x" });
    expect(costDetails(run.stdout)).toEqual([]);
  });
});
