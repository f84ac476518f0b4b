import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODEX_SIM, codexAuthJson, codexHomeIn, codexUpstream, writeCodexAuth, writeSessionLog } from "../../providers/codex/simulator.js";
import { ProviderSimulator, shiftDates } from "../../simulator/server.js";
import { openaiStatusSim } from "../../simulator/status-pages.js";
import { runCli } from "../helpers/cli.js";
import { tempHome } from "../helpers/harness.js";

/**
 * `quotabar -p codex` as a user runs it: the built bin, a fresh HOME that holds only Codex's own
 * files, no config, no flags but the provider; chatgpt.com and status.openai.com are the simulator.
 */
let sim: ProviderSimulator;
const homes: string[] = [];
beforeAll(async () => {
  sim = await ProviderSimulator.start({ providers: [codexUpstream, openaiStatusSim] });
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

/** Every file under a directory with its bytes, to prove a run changed none of Codex's. */
const snapshot = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true })
      .map(String)
      .filter((name) => statSync(join(dir, name)).isFile())
      .map((name) => [name, readFileSync(join(dir, name)).toString("base64")]),
  );

const env = (dir: string) => ({ HOME: dir, QUOTABAR_ORIGIN_MAP: sim.env().QUOTABAR_ORIGIN_MAP, PATH: "/usr/bin:/bin", NO_COLOR: "1" });

describe("quotabar -p codex, from a HOME that holds only Codex's files", () => {
  it("answers from ~/.codex/auth.json alone, as JSON, and leaves the file as it was", async () => {
    const dir = home();
    writeCodexAuth(codexHomeIn(dir));
    const before = snapshot(codexHomeIn(dir));
    const run = await runCli(["-p", "codex", "--json", "--status"], env(dir));
    expect(run.code, run.stderr).toBe(0);
    const [codex] = JSON.parse(run.stdout).providers;
    expect(codex).toMatchObject({
      id: "codex",
      name: "Codex",
      ok: true,
      source: "oauth",
      plan: "Plus",
      primary: { label: "Session", usedPercent: 2, windowMinutes: 300 },
      secondary: { label: "Weekly", usedPercent: 33, windowMinutes: 10_080 },
      status: { indicator: "none", url: "https://status.openai.com" },
    });
    expect(codex.details).toContainEqual({ label: "Account", value: "ada@example.com" });
    for (const secret of [CODEX_SIM.accessToken, CODEX_SIM.refreshToken, CODEX_SIM.idToken, CODEX_SIM.accountId]) {
      expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
    }
    expect(snapshot(codexHomeIn(dir))).toEqual(before);
  });

  it("prints the meters for a person, and with an expired sign-in the last good ones, stale, with what to do", async () => {
    const dir = home();
    const auth = writeCodexAuth(codexHomeIn(dir));
    const text = await runCli(["-p", "codex"], env(dir));
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/Codex · Plus/);
    expect(text.stdout).toMatch(/Session .*2%/);
    expect(text.stdout).toMatch(/Weekly .*33%/);

    writeCodexAuth(codexHomeIn(dir), codexAuthJson({ expired: true }));
    const before = readFileSync(auth);
    const stale = await runCli(["-p", "codex", "--json"], env(dir));
    expect(stale.code).toBe(1);
    expect(JSON.parse(stale.stdout).providers[0]).toMatchObject({
      ok: false,
      stale: true,
      primary: { usedPercent: 2 },
      error: { code: "expired", hint: expect.stringContaining("`codex`") },
    });
    expect(readFileSync(auth).equals(before)).toBe(true);
  });

  it("--source local reads the session logs alone, with no network", async () => {
    const dir = home();
    writeSessionLog(codexHomeIn(dir), "rollout.jsonl", (text, recordedAt) => shiftDates(text, new Date(recordedAt!), new Date()));
    const requests = sim.requests.length;
    const run = await runCli(["-p", "codex", "--source", "local", "--json"], { ...env(dir), QUOTABAR_ORIGIN_MAP: undefined });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).providers[0]).toMatchObject({
      ok: true,
      source: "local",
      plan: "Plus",
      primary: { label: "Session", usedPercent: 14 },
      secondary: { label: "Weekly", usedPercent: 41 },
    });
    expect(sim.requests.length).toBe(requests);
    // auto finds them too, with no sign-in and no CLI: and says so
    const auto = await runCli(["-p", "codex", "--json"], env(dir));
    expect(JSON.parse(auto.stdout).providers[0]).toMatchObject({ ok: true, source: "local" });
  });

  it("is listed as found when only Codex's files are there", async () => {
    const dir = home();
    writeCodexAuth(codexHomeIn(dir));
    const run = await runCli(["providers", "--json"], env(dir));
    const rows = JSON.parse(run.stdout) as { id: string; credentialsFound: boolean; enabled: boolean }[];
    expect(rows.find((row) => row.id === "codex")).toMatchObject({ credentialsFound: true, enabled: true });
  });
});
