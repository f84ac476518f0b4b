import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { browserCommand } from "../../oclif-cli/open-browser.js";
import { useSimulator } from "../helpers/harness.js";
import { COPILOT_DEVICE_TOKEN, COPILOT_TEST_TOKEN } from "../../providers/copilot/simulator.js";

const sim = useSimulator();
const ROOT = join(import.meta.dirname, "..", "..");
const configPath = () => join(sim.home, ".config", "quotabar", "config.json");

afterEach(() => rmSync(join(sim.home, ".config"), { recursive: true, force: true }));

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The built CLI as a user runs it, against the simulator, with an isolated HOME and no desktop. */
function cli(
  args: string[],
  options: { env?: Record<string, string | undefined>; onStdout?: (text: string, kill: () => void) => void } = {},
) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...sim.env(), PATH: process.env.PATH, ...options.env })) if (v !== undefined) env[k] = v;
  const child = spawn(process.execPath, [join(ROOT, "bin", "run.cjs"), ...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    options.onStdout?.(stdout, () => child.kill("SIGINT"));
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<Run>((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/** Every secret the simulator handed out or accepted in this test: none may be printed. */
function secretsSeen(): string[] {
  const deviceCodes = sim.sim.requests
    .filter((r) => r.path === "/login/oauth/access_token")
    .map((r) => new URLSearchParams(r.body).get("device_code") ?? "");
  return [...new Set([...deviceCodes, COPILOT_DEVICE_TOKEN])].filter((s) => s !== "");
}

function expectNoSecrets(run: Run): void {
  const secrets = secretsSeen();
  expect(secrets.length).toBeGreaterThan(0);
  for (const secret of secrets) {
    expect(run.stdout).not.toContain(secret);
    expect(run.stderr).not.toContain(secret);
  }
}

describe("quotabar login copilot", () => {
  it("shows the code, polls through pending and slow_down, saves the token at 0600 keeping unknown fields", async () => {
    mkdirSync(join(sim.home, ".config", "quotabar"), { recursive: true });
    writeFileSync(
      configPath(),
      JSON.stringify({
        version: 1,
        theme: { accent: "violet" },
        providers: [
          { id: "zai", apiKey: "zai-key", region: "global", pinned: true },
          { id: "copilot", enabled: false, editorVersion: "vscode/1.96.2", note: "work laptop" },
        ],
        timeoutSeconds: 20,
      }),
      { mode: 0o644 },
    );
    const run = await cli(["login", "copilot", "--no-browser"]);
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("WDJB-MJHT");
    expect(run.stdout).toContain("https://github.com/login/device");
    expect(run.stdout).toContain(`saved in ${configPath()}`);
    expectNoSecrets(run);

    // One interval (1 s) before each poll, and the slow_down interval (2 s) after it.
    const polls = sim.sim.requests.filter((r) => r.path === "/login/oauth/access_token").map((r) => r.receivedAt);
    expect(polls).toHaveLength(3);
    expect(polls[1]! - polls[0]!).toBeGreaterThanOrEqual(950);
    expect(polls[2]! - polls[1]!).toBeGreaterThanOrEqual(1950);

    expect(statSync(configPath()).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(configPath(), "utf8"));
    expect(saved.theme).toEqual({ accent: "violet" });
    expect(saved.timeoutSeconds).toBe(20);
    expect(saved.providers[0]).toEqual({ id: "zai", apiKey: "zai-key", region: "global", pinned: true });
    expect(saved.providers[1]).toEqual({
      id: "copilot",
      enabled: true,
      editorVersion: "vscode/1.96.2",
      note: "work laptop",
      apiKey: COPILOT_DEVICE_TOKEN,
    });

    // The saved token is what `quotabar -p copilot` now uses (no env token).
    const usage = await cli(["-p", "copilot", "--json"], { env: { COPILOT_API_TOKEN: undefined } });
    expect(usage.code).toBe(0);
    expect(JSON.parse(usage.stdout).providers[0]).toMatchObject({ id: "copilot", ok: true, plan: "Individual" });
    expect(sim.sim.requests.at(-1)!.headers.authorization).toBe(`token ${COPILOT_DEVICE_TOKEN}`);
  });

  it("creates the config file when there is none", async () => {
    const run = await cli(["login", "copilot", "--no-browser"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(configPath(), "utf8"))).toEqual({
      version: 1,
      providers: [{ id: "copilot", apiKey: COPILOT_DEVICE_TOKEN, enabled: true }],
    });
    expect(statSync(configPath()).mode & 0o777).toBe(0o600);
  });

  it("ends with the expiry guidance and exit 1, writing nothing", async () => {
    sim.sim.setScenario("copilot", "device_expired");
    const run = await cli(["login", "copilot", "--no-browser"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("The device code expired");
    expect(run.stderr).toContain("The code expired; a new sign-in gets a new code. Run `quotabar login copilot`.");
    expect(existsSync(configPath())).toBe(false);
    expectNoSecrets(run);
  });

  it("ends with 'you denied access' and exit 1, writing nothing", async () => {
    sim.sim.setScenario("copilot", "device_denied");
    const run = await cli(["login", "copilot", "--no-browser"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("you denied access");
    expect(existsSync(configPath())).toBe(false);
  });

  it("cancels cleanly on Ctrl-C: exit 130, 'Login cancelled', nothing written", async () => {
    sim.sim.setScenario("copilot", "device_pending");
    let killed = false;
    const run = await cli(["login", "copilot", "--no-browser"], {
      onStdout: (text, kill) => {
        if (!killed && text.includes("enter it")) {
          killed = true;
          kill();
        }
      },
    });
    expect(killed).toBe(true);
    expect(run.code).toBe(130);
    expect(run.stderr).toContain("Login cancelled");
    expect(existsSync(configPath())).toBe(false);
  });

  it("refuses other providers and unknown ids with exit 2", async () => {
    const warp = await cli(["login", "warp"]);
    expect(warp.code).toBe(2);
    expect(warp.stderr).toContain("Warp has no login flow in quotabar");
    expect(warp.stderr).toContain("quotabar config set-key warp --stdin");
    const unknown = await cli(["login", "nope"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown provider id: nope");
    expect(sim.sim.requests).toHaveLength(0);
  });

  it("does not start a login over a config file it could not write back", async () => {
    mkdirSync(join(sim.home, ".config", "quotabar"), { recursive: true });
    writeFileSync(configPath(), '{ "providers": [ }');
    const run = await cli(["login", "copilot", "--no-browser"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(configPath());
    expect(sim.sim.requests).toHaveLength(0);
  });
});

describe("quotabar logout", () => {
  it("removes only the apiKey of the copilot entry", async () => {
    mkdirSync(join(sim.home, ".config", "quotabar"), { recursive: true });
    writeFileSync(
      configPath(),
      JSON.stringify({ custom: 1, providers: [{ id: "copilot", enabled: true, apiKey: COPILOT_DEVICE_TOKEN, apiVersion: "2026-10-01" }] }),
    );
    const run = await cli(["logout", "copilot"], { env: { COPILOT_API_TOKEN: undefined } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Removed the GitHub Copilot token");
    expect(run.stderr).toBe("");
    expect(JSON.parse(readFileSync(configPath(), "utf8"))).toEqual({
      custom: 1,
      providers: [{ id: "copilot", enabled: true, apiVersion: "2026-10-01" }],
    });
    expect(statSync(configPath()).mode & 0o777).toBe(0o600);
  });

  it("says so when nothing is stored, and warns that the environment token still applies", async () => {
    const run = await cli(["logout", "copilot"], { env: { COPILOT_API_TOKEN: COPILOT_TEST_TOKEN } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("No GitHub Copilot token is stored");
    expect(run.stderr).toContain("COPILOT_API_TOKEN is still set");
    expect(run.stderr).not.toContain(COPILOT_TEST_TOKEN);
    expect(existsSync(configPath())).toBe(false);
  });
});

describe("opening the browser", () => {
  it("uses open on macOS and xdg-open only in a graphical Linux session", () => {
    expect(browserCommand("darwin", {})).toBe("open");
    expect(browserCommand("linux", { DISPLAY: ":0" })).toBe("xdg-open");
    expect(browserCommand("linux", { WAYLAND_DISPLAY: "wayland-0" })).toBe("xdg-open");
    expect(browserCommand("linux", {})).toBeNull();
    expect(browserCommand("win32", {})).toBeNull();
  });
});
