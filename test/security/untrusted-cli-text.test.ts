import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withoutControls, withoutEscapes } from "../../domain/untrusted-text.js";
import type { SimReply, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { terminalText } from "../../providers/kit/index.js";
import { recentSession } from "../../providers/vertexai/simulator.js";
import { ProviderSimulator } from "../../simulator/server.js";
import { runCli } from "../helpers/cli.js";
import { tempHome } from "../helpers/harness.js";

/**
 * Upstream text shown by any command is cleaned the same way: no terminal escape (an OSC window
 * title, a screen clear), no backspace or other control, no bidi override (U+202E) reaches the
 * terminal. Upstreams here answer as a hostile (or compromised) service would.
 */

// a window title, a screen clear, backspaces over what was printed, a right-to-left override, a lone C1 CSI
const TITLE = "\u001b]0;quotabar was here\u0007";
const CLEAR = "\u001b[2J\u001b[H";
const RLO = "\u202e";

/** What must never reach a terminal: escapes, controls but tab and newline, bidi controls. */
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function expectClean(text: string): void {
  const found = UNSAFE.exec(text);
  expect(
    found ? `U+${found[0].codePointAt(0)?.toString(16).padStart(4, "0")} at ${found.index} in ${JSON.stringify(text)}` : null,
  ).toBeNull();
}

const STATUS_FIXTURES = join(import.meta.dirname, "..", "..", "simulator", "fixtures", "status");
const json = (value: unknown): SimReply => ({ status: 200, json: value });

/** GitHub's device flow, answering a code full of escapes, then a denial (so the login ends at once). */
const hostileGitHub: SimulatedUpstream = {
  id: "copilot",
  origins: ["https://github.com"],
  env: {},
  scenarios: ["ok"],
  routes: [
    {
      method: "POST",
      path: "/login/device/code",
      handle: () =>
        json({
          device_code: "3584d83530557fdd1f46af8289938c8ef79f9dc5",
          user_code: `${TITLE}WDJB\b\b\b\b${RLO}-MJHT\u009b`,
          verification_uri: `https://github.com/login/device${CLEAR}${RLO}`,
          expires_in: 900,
          interval: 1,
        }),
    },
    {
      method: "POST",
      path: "/login/oauth/access_token",
      handle: () => json({ error: "access_denied", error_description: `${TITLE}The user has denied your application access.` }),
    },
  ],
};

/** GitHub's status page with an incident whose name carries a title escape, a screen clear and an override. */
const hostileStatusPage: SimulatedUpstream = {
  id: "status-github",
  origins: ["https://www.githubstatus.com"],
  env: {},
  scenarios: ["ok"],
  routes: [
    {
      method: "GET",
      path: "/proxy/www.githubstatus.com",
      handle: () => ({ status: 404, body: "<!doctype html><title>Page not found</title>" }),
    },
    {
      method: "GET",
      path: "/api/v2/summary.json",
      handle: () => {
        const summary = JSON.parse(readFileSync(join(STATUS_FIXTURES, "githubstatus-summary-incident.json"), "utf8")) as {
          incidents: { name: string }[];
        };
        for (const incident of summary.incidents) incident.name = `${TITLE}Disruption${CLEAR} with ${RLO}some GitHub services\b\b`;
        return json(summary);
      },
    },
    {
      method: "GET",
      path: "/api/v2/components.json",
      handle: () => ({ status: 200, body: readFileSync(join(STATUS_FIXTURES, "githubstatus-components-incident.json"), "utf8") }),
    },
  ],
};

describe("upstream text in every command is printed clean", () => {
  let sim: ProviderSimulator;
  let home: string;
  const env = (extra: Record<string, string> = {}) => ({
    ...sim.env(),
    HOME: home,
    QUOTABAR_SECRET_STORE: "memory",
    ...extra,
  });

  beforeAll(async () => {
    sim = await ProviderSimulator.start({ providers: [hostileGitHub, hostileStatusPage] });
    home = tempHome();
  });
  afterAll(async () => {
    await sim.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it("login copilot: GitHub's user_code and verification_uri lose their escapes, backspaces and override", async () => {
    const run = await runCli(["login", "copilot", "--no-browser"], env());
    expect(run.stdout).toContain("First copy your one-time code: WDJB-MJHT\n");
    expect(run.stdout).toContain("Then open https://github.com/login/device and enter it");
    expect(run.stderr).toContain("Login failed: you denied access on GitHub");
    expect(run.code).toBe(1);
    expectClean(run.stdout);
    expectClean(run.stderr);
  });

  it("status: an incident's name is shown without its escapes, in text and in JSON", async () => {
    const text = await runCli(["status", "-p", "copilot", "--no-color"], env());
    expect(text.stdout).toContain("! Disruption with some GitHub services");
    expectClean(text.stdout);
    expectClean(text.stderr);
    const document = await runCli(["status", "-p", "copilot", "--json"], env());
    const incidents = (JSON.parse(document.stdout) as { providers: { status: { incidents: { name: string }[] } }[] }).providers[0]?.status
      .incidents;
    expect(incidents?.map((i) => i.name)).toEqual(["Disruption with some GitHub services"]);
  });

  it("cost: a model name written into a Claude Code log is shown clean", async () => {
    const project = join(home, ".claude", "projects", "-Users-dev-hostile");
    mkdirSync(project, { recursive: true });
    const now = new Date();
    const hostileModel = JSON.stringify(`claude-${TITLE}opus${RLO}-4-5\b`).slice(1, -1); // as a JSON string holds it
    const lines = recentSession(now, 1).replaceAll('"claude-opus-4-5@', `"${hostileModel}@`);
    expect(lines).toContain("\\u001b]0;");
    writeFileSync(join(project, "8d0c2f3e-5a51-4f4e-9a53-0d1b2c3d4e5f.jsonl"), lines);
    const text = await runCli(["cost", "--no-color", "--breakdown"], env());
    expect(text.code).toBe(0);
    expect(text.stdout.split("\n").some((line) => line.trimStart().startsWith("claude-opus-4-5 "))).toBe(true);
    expectClean(text.stdout);
    const document = await runCli(["cost", "--json"], env());
    expect(JSON.stringify(JSON.parse(document.stdout))).not.toMatch(/\\u001b|\\u202e|\\b/);
  });
});

describe("the one cleaning (domain/untrusted-text.ts), lines kept or not", () => {
  it("removes escapes, backspaces, C1 controls and bidi controls, keeping ordinary Unicode", () => {
    const hostile = `${TITLE}Pro${CLEAR} plan\b\b ${RLO}ﺏﺎﻠﻋﺮﺒﻳﺓ\u2066x\u2069 · 席位\u009b\u001b(B`;
    expect(withoutControls(hostile)).toBe("Pro plan ﺏﺎﻠﻋﺮﺒﻳﺓx · 席位");
    expect(withoutEscapes(`one\r\ntwo\rthree${RLO}\u2028four\tfive`)).toBe("one\ntwo\nthree\nfour\tfive");
    expect(withoutControls(`one\r\ntwo\tthree`)).toBe("one two three");
  });

  it("a vendor CLI's output (the kit's terminalText) is cleaned the same way", () => {
    const output = `${TITLE}\u001b[1mPlan:\u001b[0m Pro${RLO}\r\nCredits: 40\b\b50\u001b7\n`;
    expect(terminalText(output)).toBe(withoutEscapes(output));
    expect(terminalText(output)).toBe("Plan: Pro\nCredits: 4050\n");
  });
});
