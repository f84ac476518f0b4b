import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claudeUpstream, seedClaudeHome } from "../../providers/claude/simulator.js";
import { codexHomeIn, codexPersonalAuthJson, codexUpstream, writeCodexAuth } from "../../providers/codex/simulator.js";
import { ProviderSimulator } from "../../simulator/server.js";
import { runCli } from "../helpers/cli.js";
import { tempHome } from "../helpers/harness.js";
import { writeConfig } from "../helpers/write-config.js";

/**
 * Accounts of the providers that read another program's sign-in: each account reads its own vendor
 * home (`codexHome`, `claudeConfigDir`), its cost from its own logs; a named account without a home
 * of its own reads none of the default account's files, and the vendor's variables are the default's.
 */
let sim: ProviderSimulator;
let home: string;
beforeAll(async () => {
  sim = await ProviderSimulator.start({ providers: [claudeUpstream, codexUpstream], liveDates: true });
  home = tempHome();
});
afterAll(async () => {
  await sim.stop();
  rmSync(home, { recursive: true, force: true });
});

interface Entry {
  id: string;
  account: string | null;
  ok: boolean;
  plan: string | null;
  error: { code: string } | null;
  details: { label: string; value: string }[];
}
const run = async (args: string[], extra: Record<string, string> = {}) => {
  const result = await runCli([...args, "--json"], {
    HOME: home,
    TZ: "UTC",
    QUOTABAR_ORIGIN_MAP: sim.env().QUOTABAR_ORIGIN_MAP,
    PATH: "/usr/bin:/bin",
    ...extra,
  });
  return (JSON.parse(result.stdout) as { providers: Entry[] }).providers;
};
const detail = (entry: Entry | undefined, label: string) => entry?.details.find((d) => d.label === label)?.value;

describe("accounts of claude and codex, each in its own vendor home", () => {
  it("codex: the default home, a second home, and an account without one side by side, nothing shared", async () => {
    writeCodexAuth(codexHomeIn(home));
    writeCodexAuth(join(home, ".codex-personal"), codexPersonalAuthJson());
    const clear = writeConfig(home, {
      providers: [
        { id: "codex", account: "personal", codexHome: "~/.codex-personal" },
        { id: "codex", account: "nohome" },
      ],
    });
    try {
      // CODEX_HOME is the default account's: a named account without codexHome never reads it either
      const [first, personal, nohome] = await run(["-p", "codex"], { CODEX_HOME: codexHomeIn(home) });
      expect([first?.account, first?.ok, first?.plan, detail(first, "Account")]).toEqual([null, true, "Plus", "ada@example.com"]);
      expect([personal?.account, personal?.ok, personal?.plan, detail(personal, "Account")]).toEqual([
        "personal",
        true,
        "Free",
        "ada.personal@example.com",
      ]);
      expect(nohome).toMatchObject({ account: "nohome", ok: false, plan: null, error: { code: "not_configured" } });
      expect(nohome?.details ?? []).toEqual([]);
    } finally {
      clear();
    }
  });

  it("claude: an account's config directory gives its sign-in and its cost, the default's logs stay the default's", async () => {
    seedClaudeHome(home);
    const work = join(home, ".claude-work");
    mkdirSync(work, { recursive: true });
    writeFileSync(
      join(work, ".credentials.json"),
      JSON.stringify({
        claudeAiOauth: { accessToken: "sk-ant-oat01-Zq3vT8mK2pX9wLr4nB7cYd1hF6jQs0uE", expiresAt: 4102444800000, subscriptionType: "team" },
      }),
    );
    const line = (dir: string, id: string, input: number) => {
      mkdirSync(join(dir, "projects", "p"), { recursive: true });
      const request = {
        type: "assistant",
        requestId: `req_${id}`,
        timestamp: new Date(Date.now() - 1_000).toISOString(),
        message: { id: `msg_${id}`, model: "claude-sonnet-4-5-20250929", usage: { input_tokens: input, output_tokens: 0 } },
      };
      writeFileSync(join(dir, "projects", "p", `${id}.jsonl`), `${JSON.stringify(request)}\n`);
    };
    line(join(home, ".claude"), "default", 100_000); // $0.30
    line(work, "work", 50_000); // $0.15
    const clear = writeConfig(home, {
      providers: [
        { id: "claude", account: "work", claudeConfigDir: "~/.claude-work" },
        { id: "claude", account: "nohome" },
      ],
    });
    try {
      const entries = await run(["-p", "claude"]);
      const byAccount = Object.fromEntries(entries.map((e) => [e.account ?? "default", e]));
      expect(byAccount.default).toMatchObject({ ok: true, plan: "Max 20x" });
      expect(byAccount.work).toMatchObject({ ok: true, plan: "Team" });
      expect(detail(byAccount.default, "Cost today")).toBe("$0.30");
      expect(detail(byAccount.work, "Cost today")).toBe("$0.15");
      expect(byAccount.nohome).toMatchObject({ ok: false, error: { code: "not_configured" } });
    } finally {
      clear();
    }
  });
});
