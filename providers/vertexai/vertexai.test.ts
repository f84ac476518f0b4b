import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { QuotabarError } from "../../domain/errors.js";
import { impossibleValue } from "../../domain/usage-service.js";
import { UsageDocumentSchema } from "../../index.js";
import { createNodeCore } from "../../library/node-core.js";
import { pinTimeZone, tempHome, useSimulator } from "../../test/helpers/harness.js";
import type { FetchContext } from "../../ports/fetch-context.js";
import type { HttpTransport } from "../../ports/http-client.js";
import { scopedHttp } from "../kit/index.js";
import { LIMIT_FILTER as WIRE_LIMIT_FILTER, quotaSeries, USAGE_FILTER as WIRE_USAGE_FILTER } from "./monitoring.js";
import { fullestQuota, vertexSnapshot, type QuotaSeries, type VertexReading } from "./policy.js";
import { seedVertexHome, VERTEX_ACCESS_TOKEN, VERTEX_PROJECT, VERTEX_SECRETS } from "./simulator.js";
import { keptInMemory } from "../../domain/kept-in-memory.js";
import { MemorySecretStore } from "../../adapters/secrets/memory-secret-store.js";
import { BetterSqlite } from "../../adapters/sqlite/better-sqlite3.js";
import { keepLimits, keptLimits } from "./kept-limits.js";
import { refreshedToken } from "./token.js";

// days are local: pin the zone so "today" and "this month" are the same wherever the tests run
pinTimeZone("America/New_York");

const sim = useSimulator();
const homes: string[] = [];
afterEach(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const NOW = new Date("2026-03-20T16:00:00Z");
const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");
const ADC = JSON.parse(fixture("adc.json")) as Record<string, string>;

// the reference's filters, written out
const USAGE_FILTER =
  'metric.type="serviceruntime.googleapis.com/quota/allocation/usage" AND resource.type="consumer_quota" AND resource.label.service="aiplatform.googleapis.com"';
const LIMIT_FILTER =
  'metric.type="serviceruntime.googleapis.com/quota/limit" AND resource.type="consumer_quota" AND resource.label.service="aiplatform.googleapis.com"';

/** A home with the gcloud files and (unless `logs` is false) ten days of Claude Code logs ending at NOW. */
async function home(options: { logs?: boolean } = {}): Promise<string> {
  const dir = tempHome();
  homes.push(dir);
  await seedVertexHome(dir, { now: NOW, ...options });
  return dir;
}

function emptyHome(): string {
  const dir = tempHome();
  homes.push(dir);
  return dir;
}

/** The provider's answer at NOW, through the Node core the library and the CLI use. */
async function vertex(env: Record<string, string | undefined>, timeoutMs?: number) {
  const core = createNodeCore({ env: sim.env(env), clock: { now: () => NOW } });
  const doc = await core.usage.usage({ providers: ["vertexai"], ...(timeoutMs ? { timeoutMs } : {}) });
  expect(UsageDocumentSchema.safeParse(doc).success).toBe(true);
  return doc.providers[0]!;
}

describe("vertexai against the simulator", () => {
  it("refreshes the token with a form body, then lists usage and limits (every page) with the reference's query", async () => {
    await vertex({ HOME: await home() });
    const [refresh, ...monitoring] = sim.sim.requests;
    expect(refresh).toMatchObject({ method: "POST", path: "/token", origin: "https://oauth2.googleapis.com" });
    expect(refresh!.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    expect([...refresh!.query]).toEqual([]);
    expect(Object.fromEntries(new URLSearchParams(refresh!.body))).toEqual({
      client_id: ADC.client_id,
      client_secret: ADC.client_secret,
      refresh_token: ADC.refresh_token,
      grant_type: "refresh_token",
    });
    expect(monitoring.map((r) => [r.query.get("filter"), r.query.get("pageToken")]).sort()).toEqual(
      [
        [USAGE_FILTER, null],
        [LIMIT_FILTER, null],
        [LIMIT_FILTER, "CkYKRAoCc3Q"],
      ].sort(),
    );
    for (const request of monitoring) {
      expect(request).toMatchObject({
        method: "GET",
        origin: "https://monitoring.googleapis.com",
        path: `/v3/projects/${VERTEX_PROJECT}/timeSeries`,
      });
      expect(request.headers.authorization).toBe(`Bearer ${VERTEX_ACCESS_TOKEN}`);
      expect(Object.fromEntries([...request.query].filter(([name]) => !["filter", "pageToken"].includes(name)))).toEqual({
        "interval.startTime": "2026-03-19T16:00:00Z",
        "interval.endTime": "2026-03-20T16:00:00Z",
        "aggregation.alignmentPeriod": "3600s",
        "aggregation.perSeriesAligner": "ALIGN_MAX",
        view: "FULL",
      });
    }
    for (const request of sim.sim.requests) {
      for (const secret of VERTEX_SECRETS.slice(0, 2)) expect(`${request.path}?${request.query}`).not.toContain(secret);
    }
  });

  it("shows the fullest quota (42 of 600 requests in us-east5), the month's Vertex cost, the project and the account", async () => {
    const usage = await vertex({ HOME: await home() });
    expect(usage).toMatchObject({ ok: true, source: "oauth", plan: null, tertiary: null, error: null });
    expect(usage.primary).toEqual({
      label: "Quota",
      usedPercent: 7,
      used: 42,
      limit: 600,
      unit: "requests",
      unlimited: false,
      resetsAt: null,
      windowMinutes: null,
      note: "online_prediction_requests_per_base_model in us-east5, peak of the last 24 hours",
    });
    // ten days of the reference session: per day $0.016989 (the _vrtx_ answer, its second chunk dropped) + $0.0075 (the @ line)
    expect(usage.secondary).toEqual({
      label: "Cost this month",
      usedPercent: null,
      used: 0.24,
      limit: null,
      unit: "USD",
      unlimited: false,
      resetsAt: "2026-04-01T04:00:00.000Z",
      // the local month, 1 March to 1 April: 31 days less the hour daylight saving took
      windowMinutes: 31 * 1440 - 60,
      note: "$0.24 this month from Claude Code logs, no monthly budget set",
    });
    expect(usage.details).toEqual([
      { label: "Project", value: "acme-ml-prod" },
      { label: "Account", value: "dev@example.com" },
      { label: "Today", value: "$0.02 · 18,751 tokens" },
      { label: "Last 30 days", value: "$0.24 · 187,510 tokens" },
    ]);
  });

  it("answers `quotabar -p vertexai --json` through the library (real clock)", async () => {
    const dir = emptyHome();
    await seedVertexHome(dir);
    const doc = await sim.quotabar({ HOME: dir }).usage({ providers: ["vertexai"] });
    expect(UsageDocumentSchema.safeParse(doc).success).toBe(true);
    const usage = doc.providers[0]!;
    expect(usage).toMatchObject({
      id: "vertexai",
      ok: true,
      primary: { usedPercent: 7, used: 42, limit: 600 },
      secondary: { unit: "USD" },
    });
    expect(usage.details).toContainEqual({ label: "Last 30 days", value: "$0.24 · 187,510 tokens" });
  });

  it("sets the cost against a monthly budget from the config entry, and ignores one that is not a positive number", async () => {
    const dir = await home();
    const config = join(dir, "quotabar.json");
    writeFileSync(config, JSON.stringify({ version: 1, providers: [{ id: "vertexai", costBudgetUsd: 2 }] }));
    expect((await vertex({ HOME: dir, QUOTABAR_CONFIG: config })).secondary).toMatchObject({
      usedPercent: 12,
      used: 0.24,
      limit: 2,
      note: null,
    });
    writeFileSync(config, JSON.stringify({ version: 1, providers: [{ id: "vertexai", costBudgetUsd: "lots" }] }));
    const ignored = await vertex({ HOME: dir, QUOTABAR_CONFIG: config });
    expect(ignored.secondary).toMatchObject({ usedPercent: null, limit: null });
    expect(ignored.details).toContainEqual({ label: "Budget", value: "The monthly cost budget is not a positive number and was ignored" });
  });

  it("uses a stored access token that is still valid without refreshing it", async () => {
    const dir = await home();
    const adc = { ...ADC, access_token: VERTEX_ACCESS_TOKEN, token_expiry: "2026-03-20T17:00:00Z" };
    writeFileSync(join(dir, ".config", "gcloud", "application_default_credentials.json"), JSON.stringify(adc));
    expect((await vertex({ HOME: dir })).ok).toBe(true);
    expect(sim.sim.requests.map((r) => r.path)).not.toContain("/token");
  });

  it("finds the gcloud files under CLOUDSDK_CONFIG and the project of the active configuration", async () => {
    const dir = await home({ logs: false });
    const gcloud = join(dir, "elsewhere");
    mkdirSync(join(gcloud, "configurations"), { recursive: true });
    writeFileSync(join(gcloud, "application_default_credentials.json"), fixture("adc.json"));
    writeFileSync(join(gcloud, "active_config"), "work\n");
    writeFileSync(join(gcloud, "configurations", "config_work"), "[compute]\nproject = not-this\n[core]\nproject = work-project\n");
    rmSync(join(dir, ".config", "gcloud"), { recursive: true });
    const usage = await vertex({ HOME: dir, CLOUDSDK_CONFIG: gcloud });
    expect(sim.sim.requests.at(-1)?.path).toBe("/v3/projects/work-project/timeSeries");
    expect(usage.error?.code).toBe("forbidden"); // the simulator knows only acme-ml-prod
  });

  it("takes the project from GOOGLE_CLOUD_PROJECT, GCLOUD_PROJECT, CLOUDSDK_CORE_PROJECT before the configuration", async () => {
    const dir = await home({ logs: false });
    const path = async (env: Record<string, string>) => {
      sim.sim.requests.length = 0;
      await vertex({ HOME: dir, ...env });
      return sim.sim.requests.at(-1)?.path;
    };
    expect(await path({ GCLOUD_PROJECT: "second", CLOUDSDK_CORE_PROJECT: "third" })).toBe("/v3/projects/second/timeSeries");
    expect(await path({ GOOGLE_CLOUD_PROJECT: "first", GCLOUD_PROJECT: "second" })).toBe("/v3/projects/first/timeSeries");
    expect(await path({ CLOUDSDK_CORE_PROJECT: "third" })).toBe("/v3/projects/third/timeSeries");
  });
});

describe("vertexai errors", () => {
  it("without an ADC file: not configured, install gcloud and sign in", async () => {
    const dir = emptyHome();
    const usage = await vertex({ HOME: dir });
    expect(usage.error).toEqual({
      code: "not_configured",
      message: `No Google Cloud application default credentials at ${join(dir, ".config", "gcloud", "application_default_credentials.json")}.`,
      hint: "Install the Google Cloud CLI (gcloud) (https://cloud.google.com/sdk/docs/install) and run `gcloud auth application-default login`.",
    });
    expect(sim.sim.requests).toEqual([]);
  });

  it.each([
    ["not JSON", "{", "parse", "Failed to decode gcloud credentials: Invalid JSON"],
    [
      "a service account",
      JSON.stringify({
        type: "service_account",
        client_email: "x@acme.iam.gserviceaccount.com",
        private_key: "-----BEGIN PRIVATE KEY-----",
      }),
      "not_configured",
      "Failed to decode gcloud credentials: Service account credentials not yet supported. Use `gcloud auth application-default login`.",
    ],
    [
      "no client secret",
      JSON.stringify({ ...ADC, client_secret: " " }),
      "not_configured",
      "gcloud credentials missing client ID or secret.",
    ],
    [
      "no refresh token",
      JSON.stringify({ ...ADC, refresh_token: "" }),
      "not_configured",
      "gcloud credentials exist but contain no tokens.",
    ],
  ])("with an ADC file holding %s: the reference's message", async (_what, text, code, message) => {
    const dir = await home({ logs: false });
    writeFileSync(join(dir, ".config", "gcloud", "application_default_credentials.json"), text);
    const usage = await vertex({ HOME: dir });
    expect(usage.error).toMatchObject({ code, message, hint: "Sign in again with `gcloud auth application-default login`." });
  });

  it("without a project: not configured, with the gcloud command that sets one", async () => {
    const dir = await home({ logs: false });
    rmSync(join(dir, ".config", "gcloud", "configurations"), { recursive: true });
    expect((await vertex({ HOME: dir })).error).toEqual({
      code: "not_configured",
      message: "No Google Cloud project configured. Run `gcloud config set project PROJECT_ID`.",
      hint: "Choose the project to watch with `gcloud config set project PROJECT_ID`.",
    });
  });

  it("a refused refresh (invalid_grant) is expired; a revoked one (unauthorized_client) is unauthorized", async () => {
    const dir = await home();
    sim.sim.setScenario("vertexai", "refresh_refused");
    expect((await vertex({ HOME: dir })).error).toEqual({
      code: "expired",
      message: "Refresh token has expired. Run `gcloud auth application-default login` again.",
      hint: "Sign in again with `gcloud auth application-default login`.",
    });
    sim.sim.setScenario("vertexai", "revoked");
    expect((await vertex({ HOME: dir })).error).toMatchObject({
      code: "unauthorized",
      message: "Refresh token was revoked. Run `gcloud auth application-default login` again.",
    });
  });

  it("a disabled Cloud Monitoring API: the reference's forbidden text, and the way to enable it", async () => {
    sim.sim.setScenario("vertexai", "api_disabled");
    expect((await vertex({ HOME: await home() })).error).toEqual({
      code: "forbidden",
      message: "Access forbidden. Check your IAM permissions for Cloud Monitoring.",
      hint: "Enable the Cloud Monitoring API for project acme-ml-prod: https://console.cloud.google.com/apis/library/monitoring.googleapis.com?project=acme-ml-prod",
    });
    sim.sim.setScenario("vertexai", "permission_denied");
    expect((await vertex({ HOME: await home() })).error?.hint).toBe(
      "The account needs the monitoring.timeSeries.list permission (the Monitoring Viewer role) on project acme-ml-prod.",
    );
  });

  it("a failed quota ends the log scan before the answer: nothing of the run is written after it", async () => {
    sim.sim.setScenario("vertexai", "api_disabled");
    const dir = await home();
    // a long session (about 40 MB) keeps the scan busy well past the quota's refusal
    const project = join(dir, ".claude", "projects", "-Users-dev-acme");
    const session = readdirSync(project).find((name) => name.endsWith(".jsonl")) as string;
    const lines = readFileSync(join(project, session), "utf8");
    writeFileSync(join(project, "long-session.jsonl"), lines.repeat(Math.ceil(40_000_000 / lines.length)));
    const cache = join(dir, ".cache", "quotabar");
    // every file under the cache, with when it was written
    const files = () =>
      existsSync(cache)
        ? readdirSync(cache, { recursive: true, withFileTypes: true })
            .filter((entry) => entry.isFile())
            .map((entry) => `${join(entry.parentPath, entry.name)} ${statSync(join(entry.parentPath, entry.name)).mtimeMs}`)
            .sort()
        : [];
    expect((await vertex({ HOME: dir })).error?.code).toBe("forbidden");
    const answered = files();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(files()).toEqual(answered);
  });

  it("no quota series: the cost alone when the logs have some, else an error saying what is missing", async () => {
    sim.sim.setScenario("vertexai", "no_series");
    const withLogs = await vertex({ HOME: await home() });
    expect(withLogs).toMatchObject({ ok: true, primary: { label: "Cost this month", used: 0.24 }, secondary: null });
    expect(withLogs.details).toContainEqual({ label: "Quota", value: "No Cloud Monitoring quota series in the last 24 hours" });
    expect((await vertex({ HOME: await home({ logs: false }) })).error).toEqual({
      code: "upstream",
      message: "Cloud Monitoring has no Vertex AI quota usage with a limit for project acme-ml-prod in the last 24 hours.",
      hint: "Vertex AI reports quota usage once the project has used it; check that this is the project you use Vertex AI in. Choose the project with `gcloud config set project PROJECT_ID`.",
    });
  });

  it("a failing token endpoint, a slow upstream and an echoing proxy: clear errors, no secret shown", async () => {
    const dir = await home();
    sim.sim.setScenario("vertexai", "upstream_500");
    expect((await vertex({ HOME: dir })).error).toMatchObject({ code: "upstream", message: "Invalid refresh response: Status 500" });
    sim.sim.setScenario("vertexai", "slow");
    expect((await vertex({ HOME: dir }, 1_000)).error).toMatchObject({ code: "timeout", message: "Vertex AI did not answer within 1 s" });
    for (const scenario of ["echo_headers", "echo_headers_ok"]) {
      sim.sim.setScenario("vertexai", scenario);
      const text = JSON.stringify(await vertex({ HOME: dir }));
      for (const secret of VERTEX_SECRETS) expect(text).not.toContain(secret);
    }
  });

  it("refuses a project id that cannot be one, before any request", async () => {
    const dir = await home({ logs: false });
    const usage = await vertex({ HOME: dir, GOOGLE_CLOUD_PROJECT: "bad project" });
    expect(usage.error).toMatchObject({ code: "not_configured", message: "The Google Cloud project id is not valid." });
    expect(sim.sim.requests).toEqual([]);
  });
});

describe("vertexai between runs: one round trip once the token and the limits are kept", () => {
  /**
   * Runs of one machine, as the CLI's runs share them: the cache files under `dir`, one secret
   * store (the tests' memory store lives as long as one core, the OS keyring longer) and a clock
   * that moves on `advance`.
   */
  function machine(dir: string) {
    const secrets = new MemorySecretStore();
    let now = NOW.getTime();
    return {
      secrets,
      advance: (ms: number) => void (now += ms),
      async run() {
        sim.sim.requests.length = 0;
        const core = createNodeCore({
          env: sim.env({ HOME: dir }),
          clock: { now: () => new Date(now) },
          browsers: { sqlite: new BetterSqlite(), secrets, interactive: false },
        });
        const doc = await core.usage.usage({ providers: ["vertexai"] });
        expect(UsageDocumentSchema.safeParse(doc).success).toBe(true);
        return doc.providers[0]!;
      },
      core: () => createNodeCore({ env: sim.env({ HOME: dir }), browsers: { sqlite: new BetterSqlite(), secrets, interactive: false } }),
    };
  }
  /** What a run asked for: `token`, `usage` or `limits` (with its page token). */
  const asked = () =>
    sim.sim.requests.map((r) =>
      r.path === "/token"
        ? "token"
        : r.query.get("filter") === USAGE_FILTER
          ? "usage"
          : `limits${r.query.get("pageToken") ? " page 2" : ""}`,
    );
  const keptFile = (dir: string) => join(dir, ".cache", "quotabar", "kept", "vertexai.json");
  /** Rewrites the kept limits in the cache file, as a damaged disk or another version could leave them. */
  function setKeptLimits(dir: string, value: unknown) {
    const record = JSON.parse(readFileSync(keptFile(dir), "utf8")) as { values: Record<string, { value: unknown }> };
    record.values.limits!.value = value;
    writeFileSync(keptFile(dir), JSON.stringify(record));
  }

  it("a second refresh with the same credential asks for usage only, and shows the same", async () => {
    const dir = await home();
    const pc = machine(dir);
    const first = await pc.run();
    expect(asked().sort()).toEqual(["limits", "limits page 2", "token", "usage"]);
    const second = await pc.run();
    expect(asked()).toEqual(["usage"]);
    expect(sim.sim.requests[0]!.headers.authorization).toBe(`Bearer ${VERTEX_ACCESS_TOKEN}`);
    expect(second).toEqual(first);
    expect(second.details).toContainEqual({ label: "Account", value: "dev@example.com" });
  });

  it("keeps the access token in the secret store only: no file under the cache holds it", async () => {
    const dir = await home();
    const pc = machine(dir);
    await pc.run();
    await pc.run();
    expect(await pc.secrets.get("quotabar", "kept:vertexai")).toContain(VERTEX_ACCESS_TOKEN);
    const cache = join(dir, ".cache", "quotabar");
    const files = readdirSync(cache, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.map((f) => f.name)).toContain("vertexai.json");
    for (const file of files) {
      const text = readFileSync(join(file.parentPath, file.name), "utf8");
      for (const secret of VERTEX_SECRETS) expect(text, file.name).not.toContain(secret);
    }
    expect(readFileSync(keptFile(dir), "utf8")).toContain('"project":"acme-ml-prod"');
    // and the kept token is redacted like a minted one: a proxy echoing the request (a 401) shows none
    sim.sim.setScenario("vertexai", "echo_headers");
    const text = JSON.stringify(await pc.run());
    expect(asked()).toEqual(["usage", "token"]);
    expect(sim.sim.requests[0]!.headers.authorization).toBe(`Bearer ${VERTEX_ACCESS_TOKEN}`);
    for (const secret of VERTEX_SECRETS) expect(text).not.toContain(secret);
  });

  it("another credential (another refresh token) mints its own token: nothing kept for the first is used", async () => {
    const dir = await home();
    const pc = machine(dir);
    await pc.run();
    const adcPath = join(dir, ".config", "gcloud", "application_default_credentials.json");
    writeFileSync(adcPath, JSON.stringify({ ...ADC, refresh_token: "1//another-refresh-token" }));
    // the simulator knows one refresh token only: the other one asks Google, and is refused
    expect((await pc.run()).error?.code).toBe("expired");
    expect(asked()).toEqual(["token"]);
    expect(new URLSearchParams(sim.sim.requests[0]!.body).get("refresh_token")).toBe("1//another-refresh-token");
  });

  it("the kept token lives as long as Google said (expires_in, less 5 minutes); the limits an hour", async () => {
    const dir = await home({ logs: false });
    const pc = machine(dir);
    await pc.run();
    pc.advance((3599 - 300) * 1000 - 1);
    await pc.run();
    expect(asked()).toEqual(["usage"]);
    pc.advance(1);
    expect((await pc.run()).ok).toBe(true);
    expect(asked()).toEqual(["token", "usage"]);
    pc.advance(3_600_000 - (3599 - 300) * 1000);
    expect((await pc.run()).ok).toBe(true);
    expect(asked().sort()).toEqual(["limits", "limits page 2", "usage"]);
  });

  it("a kept token Google refuses (401) is forgotten: one refresh, the queries again, and the run succeeds", async () => {
    const dir = await home({ logs: false });
    const pc = machine(dir);
    const first = await pc.run();
    const kept = (await pc.secrets.get("quotabar", "kept:vertexai"))!;
    await pc.secrets.set("quotabar", "kept:vertexai", kept.replace(VERTEX_ACCESS_TOKEN, "ya29.revoked-elsewhere"));
    const usage = await pc.run();
    expect(usage.ok).toBe(true);
    expect(usage.primary).toEqual(first.primary);
    expect(asked()).toEqual(["usage", "token", "usage"]);
    expect(sim.sim.requests.map((r) => r.headers.authorization)).toEqual([
      "Bearer ya29.revoked-elsewhere",
      undefined,
      `Bearer ${VERTEX_ACCESS_TOKEN}`,
    ]);
    await pc.run();
    expect(asked()).toEqual(["usage"]);
  });

  it("a 401 with the token just minted stays an error: one refresh, never a loop", async () => {
    const dir = await home({ logs: false });
    const pc = machine(dir);
    await pc.run();
    sim.sim.setScenario("vertexai", "unauthenticated");
    const refused = { code: "unauthorized", message: "Vertex AI request unauthorized. Run `gcloud auth application-default login`." };
    // with the kept token: refused, forgotten, one refresh, refused again
    expect((await pc.run()).error).toMatchObject(refused);
    expect(asked()).toEqual(["usage", "token", "usage"]);
    // with a fresh one from the start: the refresh, then the error
    expect((await machine(await home({ logs: false })).run()).error).toMatchObject(refused);
    expect(asked().sort()).toEqual(["limits", "token", "usage"]);
  });

  it("limits kept for another project are not used: the project's own are read and kept", async () => {
    const dir = await home({ logs: false });
    const pc = machine(dir);
    const first = await pc.run();
    const record = JSON.parse(readFileSync(keptFile(dir), "utf8")) as { values: { limits: { value: { limits: QuotaSeries[] } } } };
    setKeptLimits(dir, { project: "another-project", limits: record.values.limits.value.limits.map((l) => ({ ...l, value: 60 })) });
    const usage = await pc.run();
    expect(asked().sort()).toEqual(["limits", "limits page 2", "usage"]);
    expect(usage.primary).toEqual(first.primary);
    expect(usage.primary).toMatchObject({ used: 42, limit: 600 });
    await pc.run();
    expect(asked()).toEqual(["usage"]);
  });

  it.each([
    ["not an object", "limits"],
    ["no project", { limits: [{ quotaMetric: "m", limitName: "x", location: "us-east5", value: 1 }] }],
    ["a negative limit", { project: VERTEX_PROJECT, limits: [{ quotaMetric: "m", limitName: "x", location: "us-east5", value: -1 }] }],
    ["a limit as text", { project: VERTEX_PROJECT, limits: [{ quotaMetric: "m", limitName: "x", location: "us-east5", value: "600" }] }],
    ["a series without location", { project: VERTEX_PROJECT, limits: [{ quotaMetric: "m", limitName: "x", value: 1 }] }],
    ["no series", { project: VERTEX_PROJECT, limits: [] }],
  ])("damaged kept limits (%s) count as none: the limits are read again", async (_what, value) => {
    const dir = await home({ logs: false });
    const pc = machine(dir);
    await pc.run();
    setKeptLimits(dir, value);
    const usage = await pc.run();
    expect(asked().sort()).toEqual(["limits", "limits page 2", "usage"]);
    expect(usage.primary).toMatchObject({ used: 42, limit: 600 });
  });

  it("reads at most as many kept limit series as a query keeps", async () => {
    const kept = keptInMemory(() => NOW.getTime());
    const limit = { quotaMetric: "m", limitName: "x", location: "us-east5", value: 1 };
    await kept.write("limits", { project: VERTEX_PROJECT, limits: Array.from({ length: 20_001 }, () => limit) }, 60_000);
    expect(await keptLimits(kept, VERTEX_PROJECT)).toBeNull();
    await keepLimits(kept, VERTEX_PROJECT, [limit]);
    expect(await keptLimits(kept, VERTEX_PROJECT)).toEqual([limit]);
    expect(await keptLimits(kept, "another-project")).toBeNull();
  });

  it("`quotabar cache clear -p vertexai` forgets the token and the limits", async () => {
    const dir = await home({ logs: false });
    const pc = machine(dir);
    await pc.run();
    expect(await pc.core().forget(["vertexai"])).toEqual(["vertexai"]);
    await pc.run();
    expect(asked().sort()).toEqual(["limits", "limits page 2", "token", "usage"]);
  });
});

describe("vertexai policy", () => {
  const series = (quotaMetric: string, value: number, limitName = "", location = "us-east5"): QuotaSeries => ({
    quotaMetric,
    limitName,
    location,
    value,
  });
  const READING: VertexReading = {
    project: "p",
    account: null,
    usage: [],
    limits: [],
    cost: null,
    costProblem: "EACCES",
    budgetUsd: null,
    budgetIgnored: false,
  };

  it("matches usage to the limit of the same key, else to the one limit of its metric and location; the fullest wins", () => {
    const usage = [series("a", 10, "perMinute"), series("a", 30, "perMinute"), series("b", 5), series("c", 1)];
    const limits = [series("a", 100, "perMinute"), series("b", 10, "x"), series("c", 2, "x"), series("c", 3, "y")];
    // a: 30/100 (the highest series of the key); b: 5/10 through its only limit; c: two limits, no guess
    expect(fullestQuota(usage, limits)).toEqual({ quotaMetric: "b", location: "us-east5", used: 5, limit: 10 });
    expect(fullestQuota([series("a", 5)], [series("a", 0, "x")])).toBeNull(); // no positive limit
    expect(fullestQuota([series("a", 5, "", "us-east5")], [series("a", 9, "x", "europe-west1")])).toBeNull(); // another location
    expect(fullestQuota([], limits)).toBeNull();
  });

  it("keeps the quota when the logs cannot be read, saying why; goes over 100 % clamped", () => {
    const snapshot = vertexSnapshot({
      ...READING,
      usage: [series("aiplatform.googleapis.com/tokens_per_minute", 900)],
      limits: [series("aiplatform.googleapis.com/tokens_per_minute", 600, "x")],
    });
    expect(snapshot.primary).toMatchObject({
      usedPercent: 100,
      used: 900,
      limit: 600,
      unit: "tokens",
      note: "tokens_per_minute in us-east5, peak of the last 24 hours",
    });
    expect(snapshot.secondary).toBeNull();
    expect(snapshot.details).toContainEqual({ label: "Cost", value: "Claude Code logs could not be read: EACCES" });
  });
});

describe("vertexai timeSeries pages", () => {
  /** A fetch context whose upstream answers these replies in order. */
  function answering(...replies: { status: number; body: unknown }[]): FetchContext {
    const transport: HttpTransport = {
      send: async (request) => {
        const reply = replies.shift() ?? { status: 599, body: "no more replies" };
        return {
          status: reply.status,
          headers: {},
          body: typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body),
          url: request.url,
        };
      },
    };
    const signal = new AbortController().signal;
    const http = scopedHttp(transport, { service: "Vertex AI", signal, deadline: Date.now() + 5_000, budgetMs: 5_000, secrets: [] });
    return {
      env: {},
      entry: { id: "vertexai" },
      now: () => NOW,
      sourceMode: "auto",
      processes: {} as never,
      browsers: {} as never,
      kept: keptInMemory(),
      http,
      signal,
      timeoutMs: 5_000,
    };
  }
  const list = (context: FetchContext) => quotaSeries("acme-ml-prod", "token", WIRE_USAGE_FILTER, context);
  const point = (value: unknown) => ({ value });

  it("reads doubles, int64 as text or number, quota_id for a missing quota_metric, global for a missing location; skips what holds no number", async () => {
    const page = {
      timeSeries: [
        {
          metric: { labels: { quota_metric: "m1" } },
          resource: { labels: { location: "us-east5" } },
          points: [point({ doubleValue: 2.5 }), point({ int64Value: 7 })],
        },
        { metric: {}, resource: { labels: { quota_id: "m2" } }, points: [point({ int64Value: "9" }), point({})] },
        { metric: { labels: {} }, resource: {}, points: [point({ int64Value: "5" })] },
      ],
    };
    expect(await list(answering({ status: 200, body: page }))).toEqual([
      { quotaMetric: "m1", limitName: "", location: "us-east5", value: 7 },
      { quotaMetric: "m2", limitName: "", location: "global", value: 9 },
    ]);
  });

  it("refuses a negative usage point by name, and leaves out a limit of -1 (Google's unlimited)", async () => {
    const series = (value: string) => ({
      timeSeries: [
        { metric: { labels: { quota_metric: "m1" } }, resource: {}, points: [point({ int64Value: "3" })] },
        { metric: { labels: { quota_metric: "m3" } }, resource: {}, points: [point({ int64Value: value })] },
      ],
    });
    await expect(list(answering({ status: 200, body: series("-1") }))).rejects.toMatchObject({
      code: "parse",
      message: "Failed to parse Vertex AI response: timeSeries[1].points[0].value.int64Value: must not be negative (got -1)",
    });
    const limits = await quotaSeries("acme-ml-prod", "token", WIRE_LIMIT_FILTER, answering({ status: 200, body: series("-1") }));
    expect(limits).toEqual([{ quotaMetric: "m1", limitName: "", location: "global", value: 3 }]);
  });

  it("stops when a page token comes back again", async () => {
    const page = { timeSeries: [], nextPageToken: "again" };
    const context = answering({ status: 200, body: page }, { status: 200, body: page }, { status: 200, body: page });
    expect(await list(context)).toEqual([]);
  });

  it("names the field of a series it cannot read, the status and Google's message of a refusal, and keeps 429 a rate limit", async () => {
    await expect(list(answering({ status: 200, body: { timeSeries: [{ resource: {} }] } }))).rejects.toThrow(
      "Failed to parse Vertex AI response: timeSeries[0].metric",
    );
    await expect(
      list(answering({ status: 200, body: { timeSeries: [{ metric: {}, resource: {}, points: [point({ int64Value: "x" })] }] } })),
    ).rejects.toThrow("timeSeries[0].points[0].value.int64Value");
    await expect(
      list(answering({ status: 400, body: { error: { code: 400, message: "Invalid page token.", status: "INVALID_ARGUMENT" } } })),
    ).rejects.toMatchObject({
      code: "upstream",
      message: "Vertex AI response was invalid: HTTP 400: Invalid page token.",
    });
    await expect(list(answering({ status: 503, body: "<html>\n Service   Unavailable </html>" }))).rejects.toMatchObject({
      code: "upstream",
      message: "Vertex AI response was invalid: HTTP 503: <html> Service Unavailable </html>",
    });
    await expect(list(answering({ status: 401, body: {} }))).rejects.toMatchObject({
      code: "unauthorized",
      message: "Vertex AI request unauthorized. Run `gcloud auth application-default login`.",
    });
    await expect(list(answering({ status: 429, body: {} }))).rejects.toMatchObject({ code: "rate_limited" });
  });

  it("keeps a minted token for expires_in less 5 minutes: an hour when Google gives none or nonsense, 12 hours at most", async () => {
    const credential = {
      clientId: "c",
      clientSecret: "s",
      refreshToken: "r",
      accessToken: null,
      accessTokenExpiresAt: null,
      idToken: null,
    };
    for (const [expiresIn, keptMs] of [
      [3599, 3_299_000],
      [undefined, 3_300_000],
      ["soon", 3_300_000],
      [-5, 3_300_000],
      [10 ** 9, 43_200_000 - 300_000],
      [120, 0],
    ] as const) {
      let now = NOW.getTime();
      const context = {
        ...answering({ status: 200, body: { access_token: "ya29.t", expires_in: expiresIn } }),
        kept: keptInMemory(() => now),
      };
      expect(await refreshedToken(credential, context)).toEqual({ token: "ya29.t", email: null, kept: false });
      now += keptMs - 1;
      expect(await context.kept.readSecret("accessToken"), `${expiresIn}`).toBe(keptMs > 0 ? "ya29.t" : null);
      now += 1;
      expect(await context.kept.readSecret("accessToken")).toBeNull();
    }
  });

  it("never turns a mutated page into an impossible meter: a parse error or sane series", async () => {
    const pages = ["usage.json", "limits-page-1.json"].map((name) => JSON.parse(fixture(name)) as unknown);
    /** Every path to a leaf of a JSON value. */
    const leaves = (value: unknown, at: (string | number)[] = []): (string | number)[][] =>
      value !== null && typeof value === "object"
        ? Object.entries(value).flatMap(([k, v]) => leaves(v, [...at, Array.isArray(value) ? Number(k) : k]))
        : [at];
    const hostile = fc.constantFrom<unknown>(
      -1,
      -600,
      0,
      1e308,
      Number.MAX_SAFE_INTEGER,
      "NaN",
      "-5",
      "1e999",
      "",
      null,
      {},
      [],
      "x".repeat(1_000),
    );
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 1 }), fc.nat(), hostile, async (which, pick, value) => {
        const page = structuredClone(pages[which]) as Record<string, unknown>;
        const paths = leaves(page);
        const path = paths[pick % paths.length]!;
        let parent: Record<string | number, unknown> = page;
        for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
        parent[path.at(-1)!] = value;
        let series: QuotaSeries[];
        try {
          series = await list(answering({ status: 200, body: page }, { status: 200, body: page }));
        } catch (error) {
          expect((error as QuotabarError).code).toBe("parse");
          return;
        }
        for (const s of series) expect(Number.isFinite(s.value) && s.value >= 0).toBe(true);
        try {
          const snapshot = vertexSnapshot({
            ...READING_FOR_FUZZ,
            usage: series,
            limits: series.map((s) => ({ ...s, limitName: "x", value: 600 })),
          });
          expect(impossibleValue(snapshot)).toBeNull();
        } catch (error) {
          expect(error).toBeInstanceOf(QuotabarError);
        }
      }),
      { numRuns: 300 },
    );
  });
});

const READING_FOR_FUZZ: VertexReading = {
  project: "p",
  account: null,
  usage: [],
  limits: [],
  cost: null,
  costProblem: null,
  budgetUsd: null,
  budgetIgnored: false,
};
