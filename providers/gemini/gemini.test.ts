import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { UsageDocumentSchema } from "../../index.js";
import { createNodeCore } from "../../library/node-core.js";
import { tempHome, useSimulator } from "../../test/helpers/harness.js";
import { runCli } from "../../test/helpers/cli.js";
import { filesUnder } from "../../test/helpers/leaks.js";
import { MemorySecretStore } from "../../adapters/secrets/memory-secret-store.js";
import { BetterSqlite } from "../../adapters/sqlite/better-sqlite3.js";
import { geminiSnapshot, groupOf, planOf, type GeminiReading } from "./policy.js";
import { withoutComments } from "./settings.js";
import { GEMINI_CLIENT_ID, GEMINI_SECRETS, GEMINI_SIM, seedGeminiHome } from "./simulator.js";

const sim = useSimulator();
const homes: string[] = [];
afterEach(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The moment the fixtures were recorded: the files' tokens expired an hour ago. */
const NOW = new Date("2026-08-21T14:00:00Z");
const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");

/** A fresh HOME holding only ~/.gemini (and ~/.gemini-personal) as the Gemini CLI leaves them, for a scenario. */
async function home(scenario = "ok"): Promise<string> {
  const dir = tempHome();
  homes.push(dir);
  await seedGeminiHome(dir, scenario);
  return dir;
}

const credsPath = (dir: string, folder = ".gemini") => join(dir, folder, "oauth_creds.json");

/** The provider's answer at `now`, through the Node core the library and the CLI use. */
async function gemini(env: Record<string, string | undefined>, now = NOW) {
  const core = createNodeCore({ env: sim.env(env), clock: { now: () => now } });
  const doc = await core.usage.usage({ providers: ["gemini"] });
  expect(UsageDocumentSchema.safeParse(doc).success).toBe(true);
  return doc.providers[0]!;
}

const asked = () => sim.sim.requests.filter((r) => r.providerId === "gemini").map((r) => r.path);

describe("gemini with the Gemini CLI's sign-in", () => {
  it("refreshes the expired token in memory with the CLI's client, then reads the plan, the project and the quota", async () => {
    const dir = await home();
    const before = readFileSync(credsPath(dir));
    const mtime = statSync(credsPath(dir)).mtimeMs;
    const usage = await gemini({ HOME: dir });
    expect(usage).toMatchObject({ id: "gemini", ok: true, source: "oauth", plan: "Workspace" });
    expect(usage.primary).toMatchObject({ label: "Pro", usedPercent: 42, resetsAt: "2026-08-22T07:00:00.000Z", windowMinutes: 1440 });
    expect(usage.secondary).toMatchObject({ label: "Flash", usedPercent: 12, windowMinutes: 1440 });
    expect(usage.tertiary).toMatchObject({ label: "Flash Lite", usedPercent: 0, windowMinutes: 1440 });
    expect(usage.details).toEqual([
      { label: "Account", value: "dev@acme.example" },
      { label: "Project", value: GEMINI_SIM.project },
    ]);
    expect(asked()).toEqual(["/token", "/v1internal:loadCodeAssist", "/v1internal:retrieveUserQuota"]);
    const [refresh, load, quota] = sim.sim.requests;
    expect(Object.fromEntries(new URLSearchParams(refresh!.body))).toEqual({
      client_id: GEMINI_CLIENT_ID,
      client_secret: "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",
      refresh_token: GEMINI_SIM.workspace.refresh_token,
      grant_type: "refresh_token",
    });
    expect(load!.headers.authorization).toBe(`Bearer ${GEMINI_SIM.workspace.minted}`);
    expect(JSON.parse(load!.body)).toEqual({
      metadata: { ideType: "IDE_UNSPECIFIED", platform: "PLATFORM_UNSPECIFIED", pluginType: "GEMINI" },
    });
    expect(JSON.parse(quota!.body)).toEqual({ project: GEMINI_SIM.project });
    // the CLI's file is never written: same bytes, same modification time
    expect(readFileSync(credsPath(dir)).equals(before)).toBe(true);
    expect(statSync(credsPath(dir)).mtimeMs).toBe(mtime);
  });

  it("keeps the minted token in quotabar's secret store: the next run makes no refresh, and no cache file holds it", async () => {
    const dir = await home();
    const secrets = new MemorySecretStore();
    const run = async () => {
      sim.sim.requests.length = 0;
      const core = createNodeCore({
        env: sim.env({ HOME: dir }),
        clock: { now: () => NOW },
        browsers: { sqlite: new BetterSqlite(), secrets, interactive: false },
      });
      return (await core.usage.usage({ providers: ["gemini"] })).providers[0]!;
    };
    const first = await run();
    expect(asked()[0]).toBe("/token");
    expect(await run()).toEqual(first);
    expect(asked().sort()).toEqual(["/v1internal:loadCodeAssist", "/v1internal:retrieveUserQuota"]);
    expect(sim.sim.requests[0]!.headers.authorization).toBe(`Bearer ${GEMINI_SIM.workspace.minted}`);
    expect(await secrets.get("quotabar", "kept:gemini")).toContain(GEMINI_SIM.workspace.minted);
    for (const text of filesUnder(join(dir, ".cache"))) for (const secret of GEMINI_SECRETS) expect(text).not.toContain(secret);
    // a kept token Google refuses is forgotten and costs one refresh, never a loop
    sim.sim.setScenario("gemini", "unauthorized");
    expect((await run()).error).toMatchObject({ code: "unauthorized" });
    // (the kept project's quota goes beside each loadCodeAssist)
    const [refused, refresh, again] = [asked().slice(0, 2).sort(), asked()[2], asked().slice(3).sort()];
    expect([refused, refresh, again]).toEqual([
      ["/v1internal:loadCodeAssist", "/v1internal:retrieveUserQuota"],
      "/token",
      ["/v1internal:loadCodeAssist", "/v1internal:retrieveUserQuota"],
    ]);
  });

  it("a failing Google serves the last good snapshot, marked stale, for the same sign-in", async () => {
    const dir = await home();
    const core = createNodeCore({ env: sim.env({ HOME: dir }), clock: { now: () => NOW } });
    expect((await core.usage.usage({ providers: ["gemini"] })).providers[0]).toMatchObject({ ok: true });
    sim.sim.setScenario("gemini", "upstream_500");
    const stale = (await core.usage.usage({ providers: ["gemini"] })).providers[0]!;
    expect(stale).toMatchObject({ ok: false, stale: true, plan: "Workspace", primary: { label: "Pro", usedPercent: 42 } });
    expect(stale.error).toMatchObject({ code: "upstream" });
  });

  it("GEMINI_OAUTH_CLIENT_ID and _SECRET replace the CLI's client (both, or neither)", async () => {
    const dir = await home();
    const run = (env: Record<string, string>) => gemini({ HOME: dir, ...env });
    const custom = await run({
      GEMINI_OAUTH_CLIENT_ID: "123-custom.apps.googleusercontent.com",
      GEMINI_OAUTH_CLIENT_SECRET: "GOCSPX-custom-secret",
    });
    expect(new URLSearchParams(sim.sim.requests[0]!.body).get("client_id")).toBe("123-custom.apps.googleusercontent.com");
    // Google does not know that client here
    expect(custom.error).toMatchObject({ code: "unauthorized", message: expect.stringContaining("GEMINI_OAUTH_CLIENT_ID") });
    sim.sim.requests.length = 0;
    expect(await run({ GEMINI_OAUTH_CLIENT_ID: "123-custom.apps.googleusercontent.com" })).toMatchObject({ ok: true });
    expect(new URLSearchParams(sim.sim.requests[0]!.body).get("client_id")).toBe(GEMINI_CLIENT_ID);
  });

  it("uses the file's token while it is valid, without a refresh", async () => {
    const dir = await home();
    const creds = JSON.parse(fixture("oauth-creds-workspace.json")) as Record<string, unknown>;
    writeFileSync(credsPath(dir), JSON.stringify({ ...creds, expiry_date: NOW.getTime() + 3_000_000 }));
    expect(await gemini({ HOME: dir })).toMatchObject({ ok: true, plan: "Workspace" });
    expect(asked()).not.toContain("/token");
    expect(sim.sim.requests[0]!.headers.authorization).toBe(`Bearer ${GEMINI_SIM.workspace.access_token}`);
  });

  it("an expired token without a refresh token: sign in again", async () => {
    const dir = await home();
    const { refresh_token: _, ...creds } = JSON.parse(fixture("oauth-creds-workspace.json")) as Record<string, unknown>;
    writeFileSync(credsPath(dir), JSON.stringify(creds));
    const usage = await gemini({ HOME: dir });
    expect(usage.error).toMatchObject({ code: "expired" });
    expect(usage.error?.message).toContain("Run `gemini` to sign in again");
    expect(asked()).toEqual([]);
  });

  it.each([
    [
      "standard",
      {
        plan: "Paid",
        details: [
          { label: "Account", value: "dev@acme.example" },
          { label: "Project", value: "acme-code-assist" },
        ],
      },
    ],
  ])("%s: Code Assist Standard, Pro used up and Flash with counts", async (scenario, expected) => {
    sim.sim.setScenario("gemini", scenario);
    const usage = await gemini({ HOME: await home(scenario) });
    expect(usage).toMatchObject({ ok: true, ...expected });
    expect(usage.primary).toMatchObject({ label: "Pro", usedPercent: 100, used: null, limit: null, resetsAt: "2026-08-21T23:12:40.000Z" });
    expect(usage.secondary).toMatchObject({ label: "Flash", usedPercent: 25, used: 250, limit: 1000, unit: "requests" });
    expect(usage.tertiary).toBeNull();
  });

  it("a group with no bucket has no meter, never 0 %", async () => {
    sim.sim.setScenario("gemini", "flash_only");
    const usage = await gemini({ HOME: await home() });
    expect(usage).toMatchObject({ ok: true, primary: null, tertiary: null, secondary: { label: "Flash", usedPercent: 20 } });
  });

  it("more left than the whole (remainingFraction 1.5) is nothing used", async () => {
    sim.sim.setScenario("gemini", "over_full");
    const usage = await gemini({ HOME: await home() });
    expect(usage).toMatchObject({ ok: true, primary: { label: "Pro", usedPercent: 0 }, secondary: { usedPercent: 60 } });
  });

  it("no bucket at all: no meters, and the details say Google reported none", async () => {
    sim.sim.setScenario("gemini", "empty");
    const usage = await gemini({ HOME: await home() });
    expect(usage).toMatchObject({ ok: true, primary: null, secondary: null, tertiary: null });
    expect(usage.details).toContainEqual({ label: "Quota", value: "Google reported none for this project" });
  });

  it.each(["consumer_refused", "refused_at_refresh"])(
    "%s: the June 2026 refusal of personal accounts is said so, with Antigravity to use instead",
    async (scenario) => {
      sim.sim.setScenario("gemini", scenario);
      const usage = await gemini({ HOME: await home(scenario) });
      expect(usage.ok).toBe(false);
      expect(usage.error).toMatchObject({ code: "forbidden" });
      expect(usage.error?.message).toBe(
        "Google no longer lets the Gemini CLI sign in with individual, Google AI Pro or Ultra accounts (since June 2026): this account has no Gemini CLI quota to show.",
      );
      expect(usage.error?.hint).toContain("Antigravity provider");
      expect(usage.error?.hint).toContain("quotabar -p antigravity");
    },
  );

  it.each([
    ["refresh_refused", "expired", "Gemini CLI sign-in has expired or was revoked. Run `gemini` to sign in again."],
    ["not_onboarded", "not_configured", "Gemini CLI has not finished setting up this account."],
    [
      "no_project",
      "not_configured",
      "This account needs a Google Cloud project for Gemini Code Assist (Your Workspace account is not eligible for the free tier.). Set GOOGLE_CLOUD_PROJECT to it, as for the Gemini CLI.",
    ],
    ["unauthorized", "unauthorized", "Gemini Code Assist API refused the Gemini CLI sign-in (HTTP 401). Run `gemini` to sign in again."],
    ["upstream_500", "upstream", "Invalid refresh response: Status 500"],
  ])("%s: %s, said plainly", async (scenario, code, message) => {
    sim.sim.setScenario("gemini", scenario);
    const usage = await gemini({ HOME: await home(scenario) });
    expect(usage.error).toMatchObject({ code, message });
  });

  it("no_project with GOOGLE_CLOUD_PROJECT set: the quota of that project", async () => {
    sim.sim.setScenario("gemini", "no_project");
    const usage = await gemini({ HOME: await home(), GOOGLE_CLOUD_PROJECT: GEMINI_SIM.envProject });
    expect(usage).toMatchObject({ ok: true, plan: "Paid" });
    const load = sim.sim.requests.find((r) => r.path === "/v1internal:loadCodeAssist")!;
    expect(JSON.parse(load.body)).toMatchObject({
      cloudaicompanionProject: GEMINI_SIM.envProject,
      metadata: { duetProject: GEMINI_SIM.envProject },
    });
  });

  it("a project number in GOOGLE_CLOUD_PROJECT is refused as the CLI refuses it", async () => {
    sim.sim.setScenario("gemini", "no_project");
    const usage = await gemini({ HOME: await home(), GOOGLE_CLOUD_PROJECT: "412345678901" });
    expect(usage.error).toMatchObject({ code: "not_configured" });
    expect(usage.error?.message).toContain("not a valid project id");
    expect(asked()).not.toContain("/v1internal:retrieveUserQuota");
    expect(JSON.parse(sim.sim.requests.find((r) => r.path === "/v1internal:loadCodeAssist")!.body)).not.toHaveProperty(
      "cloudaicompanionProject",
    );
  });

  it("429: a rate limit, with Google's retryDelay as the time to wait", async () => {
    sim.sim.setScenario("gemini", "rate_limited");
    const usage = await gemini({ HOME: await home() });
    expect(usage.error).toMatchObject({ code: "rate_limited" });
    expect(usage.error?.message).toContain("You have exhausted your daily quota on this model.");
  });

  it.each([
    ["api_key", "an API key", "Google AI Studio"],
    ["vertex", "Vertex AI", "vertexai provider"],
  ])("%s users: no quota to show, said plainly", async (scenario, how, where) => {
    const dir = await home(scenario);
    const usage = await gemini({ HOME: dir });
    expect(usage.error).toMatchObject({ code: "not_configured" });
    expect(usage.error?.message).toBe(
      `Gemini CLI is set to use ${how} (${join(dir, ".gemini", "settings.json")}): Google keeps no quota for it that quotabar can read. Only Login with Google has a quota to show.`,
    );
    expect(usage.error?.hint).toContain(where);
    expect(asked()).toEqual([]);
  });

  it("signed out (no oauth_creds.json): not configured, with the Gemini CLI to sign in with", async () => {
    const dir = await home("signed_out");
    const usage = await gemini({ HOME: dir });
    expect(usage.error).toMatchObject({ code: "not_configured", message: `No Gemini CLI sign-in at ${credsPath(dir)}.` });
    expect(usage.error?.hint).toContain("gemini");
  });

  it("reads the folder named by the entry's geminiDir (an account of its own), else $GEMINI_CLI_HOME/.gemini", async () => {
    const dir = await home();
    mkdirSync(join(dir, ".config", "quotabar"), { recursive: true });
    writeFileSync(
      join(dir, ".config", "quotabar", "config.json"),
      JSON.stringify({ version: 1, providers: [{ id: "gemini", geminiDir: "~/.gemini-personal" }] }),
    );
    expect((await gemini({ HOME: dir })).error?.message).toContain("since June 2026");
    const personal = readFileSync(credsPath(dir, ".gemini-personal"));
    expect(personal.equals(Buffer.from(fixture("oauth-creds-personal.json")))).toBe(true);
    rmSync(join(dir, ".config"), { recursive: true });
    const cliHome = tempHome();
    homes.push(cliHome);
    await seedGeminiHome(cliHome, "ok");
    expect(await gemini({ HOME: dir, GEMINI_CLI_HOME: cliHome })).toMatchObject({ ok: true, plan: "Workspace" });
  });

  it("a relative geminiDir is a clear error", async () => {
    const dir = await home();
    mkdirSync(join(dir, ".config", "quotabar"), { recursive: true });
    writeFileSync(
      join(dir, ".config", "quotabar", "config.json"),
      JSON.stringify({ version: 1, providers: [{ id: "gemini", geminiDir: "gemini" }] }),
    );
    expect((await gemini({ HOME: dir })).error).toMatchObject({ code: "not_configured", message: expect.stringContaining("geminiDir") });
  });

  it("a sign-in file that is not JSON, a directory, a FIFO, a device or too large: an error naming the file, never its content", async () => {
    const dir = await home();
    const path = credsPath(dir);
    writeFileSync(path, '{"access_token": "ya29.secret-looking-not-json');
    let usage = await gemini({ HOME: dir });
    expect(usage.error).toMatchObject({ code: "not_configured", message: `The Gemini CLI's sign-in ${path} is not JSON` });
    expect(JSON.stringify(usage)).not.toContain("secret-looking");
    for (const [make, reason] of [
      [() => mkdirSync(path), "is a directory"],
      [() => execFileSync("mkfifo", [path]), "is not a regular file"],
      [() => symlinkSync("/dev/urandom", path), "is not a regular file"],
      [() => writeFileSync(path, `{"access_token":"${"x".repeat(9 * 1024 * 1024)}"}`), "is too large to be a sign-in file"],
    ] as const) {
      rmSync(path, { recursive: true, force: true });
      make();
      usage = await gemini({ HOME: dir });
      expect(usage.error?.message).toBe(`The Gemini CLI's sign-in ${path} ${reason}`);
    }
  });

  it("a file holding no token: sign in again", async () => {
    const dir = await home();
    writeFileSync(credsPath(dir), JSON.stringify({ token_type: "Bearer", scope: "openid" }));
    expect((await gemini({ HOME: dir })).error).toMatchObject({
      code: "not_configured",
      message: expect.stringContaining("holds no token"),
    });
  });

  it("a hostile fraction: not a number, infinite or beyond any quota is a parse error naming the field", async () => {
    const dir = await home();
    for (const [value, problem] of [
      [1e16, "is larger than any quota"],
      ['"lots"', "expected a number"],
      ['"1e999"', "expected a number"],
    ] as const) {
      const body = `{"buckets":[{"modelId":"gemini-2.5-pro","remainingFraction":${value}}]}`;
      const upstreams = sim.sim.providers.find((p) => p.id === "gemini")!;
      const route = upstreams.routes.find((r) => r.path === "/v1internal:retrieveUserQuota")!;
      const original = route.handle;
      (route as { handle: typeof route.handle }).handle = () => ({ status: 200, body });
      try {
        const usage = await gemini({ HOME: dir });
        expect(usage.error).toMatchObject({ code: "parse", message: expect.stringContaining(`buckets[0].remainingFraction: ${problem}`) });
      } finally {
        (route as { handle: typeof route.handle }).handle = original;
      }
    }
  });
});

describe("gemini's policy", () => {
  const reading = (fields: Partial<GeminiReading>): GeminiReading => ({
    tierId: "free-tier",
    tierName: "Gemini Code Assist for individuals",
    paidTierName: null,
    hostedDomain: null,
    email: null,
    project: "p",
    aiCredits: null,
    buckets: [],
    ...fields,
  });

  it("groups models as the Gemini CLI does: registry ids, _vertex twins, then by name (Flash Lite before Flash)", () => {
    expect(
      [
        "gemini-2.5-pro",
        "gemini-3-pro-preview",
        "gemini-2.5-pro_vertex",
        "models/gemini-2.5-flash",
        "gemini-3-flash",
        "gemini-2.5-flash-lite",
        "gemini-9-flash-lite-exp",
        "gemini-9-flash-exp",
        "gemini-9-pro-exp",
        "gemma-3",
      ].map(groupOf),
    ).toEqual(["pro", "pro", "pro", "flash", "flash", "flash-lite", "flash-lite", "flash", "pro", null]);
  });

  it("names the plan from paidTier, else the tier; a free Workspace account is Workspace", () => {
    const load = JSON.parse(fixture("load-code-assist-ai-pro.json")) as { paidTier: { name: string } };
    expect(planOf(reading({ tierId: "standard-tier", paidTierName: load.paidTier.name }))).toBe("Google One AI Pro");
    expect(planOf(reading({ paidTierName: "Plus" }))).toBe("Plus");
    expect(planOf(reading({ hostedDomain: "acme.example" }))).toBe("Workspace");
    expect(planOf(reading({}))).toBe("Free");
    expect(planOf(reading({ tierId: "standard-tier", hostedDomain: "acme.example" }))).toBe("Paid");
    expect(planOf(reading({ tierId: "legacy-tier" }))).toBe("Legacy");
    expect(planOf(reading({ tierId: "g1-ultra-tier", tierName: "Gemini Code Assist in Google AI Ultra" }))).toBe(
      "Gemini Code Assist in Google AI Ultra",
    );
    expect(planOf(reading({ tierId: null, tierName: null }))).toBeNull();
  });

  it("used % to one decimal, the least left in a group, the earliest reset on a tie", () => {
    const snapshot = geminiSnapshot(
      reading({
        aiCredits: 1000,
        buckets: [
          { modelId: "gemini-2.5-pro", remainingFraction: 0.12345, remainingAmount: null, resetsAt: "2026-08-22T07:00:00.000Z" },
          { modelId: "gemini-2.5-flash", remainingFraction: 0.5, remainingAmount: null, resetsAt: "2026-08-22T09:00:00.000Z" },
          { modelId: "gemini-3.5-flash", remainingFraction: 0.5, remainingAmount: null, resetsAt: "2026-08-22T08:00:00.000Z" },
        ],
      }),
    );
    expect(snapshot.primary).toMatchObject({ usedPercent: 87.7 });
    expect(snapshot.secondary).toMatchObject({ usedPercent: 50, resetsAt: "2026-08-22T08:00:00.000Z" });
    expect(snapshot.details).toContainEqual({ label: "Google One AI credits", value: "1,000" });
  });

  it("reads settings written with comments, leaving // inside strings alone", () => {
    const text = '{\n  // the theme\n  "url": "https://example.com/a", /* block */ "n": 1\n}';
    expect(JSON.parse(withoutComments(text))).toEqual({ url: "https://example.com/a", n: 1 });
  });
});

/** Runs in one HOME with one secret store: what the first run keeps (the token, the project), later runs find. */
function runsIn(dir: string, simulator = sim, env: Record<string, string> = {}) {
  const secrets = new MemorySecretStore();
  return async (extra: Record<string, string> = {}) => {
    simulator.sim.requests.length = 0;
    const core = createNodeCore({
      env: simulator.env({ HOME: dir, ...env, ...extra }),
      clock: { now: () => NOW },
      browsers: { sqlite: new BetterSqlite(), secrets, interactive: false },
    });
    return (await core.usage.usage({ providers: ["gemini"] })).providers[0]!;
  };
}

const quotaProjects = (simulator = sim) =>
  simulator.sim.requests
    .filter((r) => r.path === "/v1internal:retrieveUserQuota")
    .map((r) => (JSON.parse(r.body) as { project: string }).project);

describe("gemini's later runs: the project kept from an earlier run is asked for beside loadCodeAssist", () => {
  /** loadCodeAssist answers a later run only once its quota request has arrived (a fail-safe after 5 s says it never did). */
  const gate = { armed: false, heldUntilQuota: false, arrive: () => {} };
  const gated = useSimulator({
    upstreams: (all) =>
      all.map((upstream) =>
        upstream.id !== "gemini"
          ? upstream
          : {
              ...upstream,
              routes: upstream.routes.map((route) => {
                if (route.path === "/v1internal:retrieveUserQuota") {
                  return { ...route, handle: (request, scenario) => (gate.arrive(), route.handle(request, scenario)) };
                }
                if (route.path !== "/v1internal:loadCodeAssist") return route;
                return {
                  ...route,
                  handle: async (request, scenario) => {
                    if (gate.armed) {
                      gate.heldUntilQuota = await new Promise<boolean>((resolve) => {
                        gate.arrive = () => resolve(true);
                        setTimeout(() => resolve(false), 5_000).unref();
                      });
                    }
                    return route.handle(request, scenario);
                  },
                };
              }),
            },
      ),
  });
  afterEach(() => Object.assign(gate, { armed: false, heldUntilQuota: false, arrive: () => {} }));
  const gatedAsked = () => gated.sim.requests.filter((r) => r.providerId === "gemini").map((r) => r.path);

  it("the first run asks in sequence; a later one sends the quota request without waiting for loadCodeAssist", async () => {
    const run = runsIn(await home(), gated);
    const first = await run();
    expect(first).toMatchObject({ ok: true, plan: "Workspace" });
    expect(gatedAsked()).toEqual(["/token", "/v1internal:loadCodeAssist", "/v1internal:retrieveUserQuota"]);
    gate.armed = true;
    expect(await run()).toEqual(first);
    expect(gate.heldUntilQuota).toBe(true);
    expect(gatedAsked().sort()).toEqual(["/v1internal:loadCodeAssist", "/v1internal:retrieveUserQuota"]);
    expect(quotaProjects(gated)).toEqual([GEMINI_SIM.project]);
  });

  it("a project loadCodeAssist names anew is asked for again, and kept", async () => {
    const run = runsIn(await home());
    expect(await run()).toMatchObject({ ok: true, details: expect.arrayContaining([{ label: "Project", value: GEMINI_SIM.project }]) });
    // the account now belongs to another project: the kept one's quota is refused (403), the new one's asked
    sim.sim.setScenario("gemini", "standard");
    const moved = await run();
    expect(moved).toMatchObject({ ok: true, plan: "Paid" });
    expect(moved.details).toContainEqual({ label: "Project", value: GEMINI_SIM.standardProject });
    expect(asked().at(-1)).toBe("/v1internal:retrieveUserQuota");
    expect(quotaProjects()).toEqual([GEMINI_SIM.project, GEMINI_SIM.standardProject]);
    expect(await run()).toEqual(moved);
    expect(asked().sort()).toEqual(["/v1internal:loadCodeAssist", "/v1internal:retrieveUserQuota"]);
    expect(quotaProjects()).toEqual([GEMINI_SIM.standardProject]);
  });

  it("a failed loadCodeAssist fails the run whatever the kept project's quota said; GOOGLE_CLOUD_PROJECT is never second-guessed", async () => {
    const run = runsIn(await home());
    await run();
    sim.sim.setScenario("gemini", "not_onboarded");
    expect((await run()).error).toMatchObject({ code: "not_configured" });
    expect(asked().sort()).toEqual(["/v1internal:loadCodeAssist", "/v1internal:retrieveUserQuota"]);
    // with the project in the environment, nothing kept is guessed: the quota waits for loadCodeAssist
    expect((await run({ GOOGLE_CLOUD_PROJECT: GEMINI_SIM.project })).error).toMatchObject({ code: "not_configured" });
    expect(asked()).toEqual(["/v1internal:loadCodeAssist"]);
  });
});

describe("quotabar -p gemini from a fresh HOME holding only ~/.gemini", () => {
  it("answers from the CLI's files through the simulator, refreshing in memory; the file is unchanged", { timeout: 60_000 }, async () => {
    const dir = await home();
    const before = readFileSync(credsPath(dir));
    const run = await runCli(["-p", "gemini", "--source", "oauth", "--json"], sim.env({ HOME: dir }));
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const [usage] = (JSON.parse(run.stdout) as { providers: Record<string, unknown>[] }).providers;
    expect(usage).toMatchObject({ id: "gemini", ok: true, source: "oauth", plan: "Workspace", primary: { label: "Pro" } });
    expect(asked()[0]).toBe("/token");
    expect(readFileSync(credsPath(dir)).equals(before)).toBe(true);
    for (const secret of GEMINI_SECRETS) expect(run.stdout).not.toContain(secret);
    const text = await runCli(["-p", "gemini", "--no-color"], sim.env({ HOME: dir }));
    expect(text.stdout).toContain("Gemini CLI");
    expect(text.stdout).toContain("Workspace");
  });
});
