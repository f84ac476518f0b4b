import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { UsageDocumentSchema } from "../../domain/usage-document.js";
import type { HistoryDocument } from "../../oclif-cli/commands/history.js";
import { startServe, type ServeHandle } from "../../oclif-cli/serve/start-serve.js";
import { runCli } from "../helpers/cli.js";
import { useSimulator } from "../helpers/harness.js";
import { httpGet } from "../helpers/http-get.js";

const sim = useSimulator();
const BIN = join(import.meta.dirname, "..", "..", "bin", "run.cjs");
const TOKEN = "4f1c0d6e9a7b2c3d5e8f0a1b2c3d4e5f";
const PROVIDERS = ["openrouter", "warp", "zai"];
const running: ServeHandle[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((handle) => handle.stop()));
});

/** Serve against the simulator, in this process, and wait until every provider has been refreshed `times` times. */
async function serve(options: { intervalMs?: number; token?: string | null; providers?: string[] } = {}) {
  const log: string[] = [];
  const handle = await startServe({
    env: sim.env(),
    host: "127.0.0.1",
    port: 0,
    intervalMs: options.intervalMs ?? 3_600_000,
    token: options.token ?? null,
    providers: options.providers ?? PROVIDERS,
    log: (line) => log.push(line),
  });
  running.push(handle);
  await refreshed(handle, 1);
  return { handle, log };
}

/** Waits (polling the state, never a wall-clock assertion) until every provider has had `times` refreshes. */
async function refreshed(handle: ServeHandle, times: number): Promise<void> {
  while (!handle.providers.every((id) => (handle.state.get(id)?.refreshes ?? 0) >= times)) await new Promise((r) => setTimeout(r, 20));
}

/** The exposition's samples as `name{labels} value` lines, without HELP and TYPE. */
const samples = (text: string) => text.split("\n").filter((line) => line !== "" && !line.startsWith("#"));

describe("quotabar serve: usage over HTTP and Prometheus metrics, from what the loop has", () => {
  it("GET /usage is the usage document (?provider= filters), /healthz 200 while the loop runs, anything else 404 or 405", async () => {
    const { handle } = await serve();
    const usage = await httpGet(`${handle.url}/usage`);
    expect(usage.status).toBe(200);
    expect(usage.headers["content-type"]).toBe("application/json; charset=utf-8");
    const doc = UsageDocumentSchema.parse(JSON.parse(usage.body));
    expect(doc.providers.map((p) => [p.id, p.ok])).toEqual(PROVIDERS.map((id) => [id, true]));

    const one = JSON.parse((await httpGet(`${handle.url}/usage?provider=warp`)).body);
    expect(one.providers.map((p: { id: string }) => p.id)).toEqual(["warp"]);
    const two = JSON.parse((await httpGet(`${handle.url}/usage?provider=zai&provider=openrouter`)).body);
    expect(two.providers.map((p: { id: string }) => p.id)).toEqual(["openrouter", "zai"]);
    const notServed = await httpGet(`${handle.url}/usage?provider=kimi`);
    expect(notServed.status).toBe(404);
    expect(JSON.parse(notServed.body)).toEqual({ error: "not served here: kimi", served: PROVIDERS });

    const health = await httpGet(`${handle.url}/healthz`);
    expect([health.status, JSON.parse(health.body)]).toEqual([200, { status: "ok", providers: 3, refreshed: 3 }]);
    expect((await httpGet(`${handle.url}/nope`)).status).toBe(404);
    const post = await httpGet(`${handle.url}/usage`, {}, "POST");
    expect([post.status, post.headers.allow]).toEqual([405, "GET, HEAD"]);
    const head = await httpGet(`${handle.url}/metrics`, {}, "HEAD");
    expect([head.status, head.body]).toEqual([200, ""]);
  });

  it("GET /cost: the document of quotabar cost --json; /metrics: quotabar_cost_usd by agent and period", async () => {
    const now = new Date();
    const dir = join(sim.home, ".claude", "projects", "p");
    mkdirSync(dir, { recursive: true });
    const usage = { input_tokens: 100_000, output_tokens: 100_000 };
    const line = {
      type: "assistant",
      requestId: "req_1",
      timestamp: now.toISOString(),
      message: { id: "msg_1", model: "claude-sonnet-4-5-20250929", usage },
    };
    writeFileSync(join(dir, "s.jsonl"), `${JSON.stringify(line)}\n`);
    const { handle } = await serve();
    const cost = JSON.parse((await httpGet(`${handle.url}/cost`)).body);
    expect(cost).toMatchObject({ version: 1, currency: "USD", agents: ["claude", "codex"], total: { requests: 1, costUsd: 1.8 } });
    expect(cost.models).toMatchObject([{ model: "claude-sonnet-4-5", agent: "claude", backend: "anthropic" }]);
    const lines = samples((await httpGet(`${handle.url}/metrics`)).body);
    for (const period of ["today", "month"]) {
      expect(lines).toContain(`quotabar_cost_usd{agent="claude",period="${period}"} 1.8`);
      expect(lines).toContain(`quotabar_cost_usd{agent="codex",period="${period}"} 0`);
    }
  });

  it("GET /metrics: every gauge with HELP and TYPE, labelled by provider, meter role and unit, no credential or account in it", async () => {
    const { handle } = await serve();
    const metrics = await httpGet(`${handle.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = metrics.body;
    for (const name of [
      "quotabar_meter_used_percent",
      "quotabar_meter_used",
      "quotabar_meter_limit",
      "quotabar_meter_resets_at_seconds",
      "quotabar_meter_pace_delta_percent",
      "quotabar_provider_up",
      "quotabar_snapshot_age_seconds",
      "quotabar_fetch_duration_seconds",
      "quotabar_status_indicator",
    ]) {
      expect(text).toMatch(new RegExp(`^# HELP ${name} \\S`, "m"));
      expect(text).toContain(`# TYPE ${name} gauge`);
    }
    expect(text).toContain("# TYPE quotabar_refreshes_total counter");
    const lines = samples(text);
    expect(lines).toContain('quotabar_meter_used_percent{provider="warp",meter="primary"} 81');
    expect(lines).toContain('quotabar_meter_used{provider="warp",meter="primary",unit="credits"} 1215');
    expect(lines).toContain('quotabar_meter_limit{provider="warp",meter="primary",unit="credits"} 1500');
    expect(lines).toContain('quotabar_meter_limit{provider="openrouter",meter="primary",unit="USD"} 60');
    for (const id of PROVIDERS) {
      expect(lines).toContain(`quotabar_provider_up{provider="${id}"} 1`);
      expect(lines).toContain(`quotabar_refreshes_total{provider="${id}"} 1`);
      expect(lines.some((line) => line.startsWith(`quotabar_fetch_duration_seconds{provider="${id}"} `))).toBe(true);
      expect(lines.some((line) => line.startsWith(`quotabar_snapshot_age_seconds{provider="${id}"} `))).toBe(true);
    }
    // every meter's numbers and reset (seconds since the epoch) as the document has them
    const doc = UsageDocumentSchema.parse(JSON.parse((await httpGet(`${handle.url}/usage`)).body));
    for (const p of doc.providers) {
      for (const role of ["primary", "secondary", "tertiary"] as const) {
        const m = p[role];
        if (!m) continue;
        const at = `provider="${p.id}",meter="${role}"`;
        expect(lines).toContain(`quotabar_meter_used_percent{${at}} ${m.usedPercent}`);
        expect(lines).toContain(`quotabar_meter_used{${at},unit="${m.unit}"} ${m.used}`);
        expect(lines).toContain(`quotabar_meter_limit{${at},unit="${m.unit}"} ${m.limit}`);
        if (m.resetsAt) expect(lines).toContain(`quotabar_meter_resets_at_seconds{${at}} ${Date.parse(m.resetsAt) / 1000}`);
      }
    }
    // a pace series for each meter the document gives a pace, and only those
    const paced = doc.providers.flatMap((p) =>
      (["primary", "secondary", "tertiary"] as const)
        .filter((role) => p[role]?.pace)
        .map((role) => `quotabar_meter_pace_delta_percent{provider="${p.id}",meter="${role}"} ${p[role]?.pace?.deltaPercent}`),
    );
    expect(paced.length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.startsWith("quotabar_meter_pace_delta_percent"))).toEqual(paced);
    // labels are only provider, meter and unit (and the cost's agent and period)
    for (const line of lines.filter((l) => !l.startsWith("quotabar_cost_usd{"))) {
      const inside = line.slice(line.indexOf("{") + 1, line.lastIndexOf("}"));
      const labels = inside.split(",").map((pair) => pair.slice(0, pair.indexOf("=")));
      expect(
        labels.every((label) => ["provider", "meter", "unit"].includes(label as string)),
        line,
      ).toBe(true);
    }
    const secrets = Object.entries(sim.env())
      .filter(([name]) => name !== "QUOTABAR_ORIGIN_MAP")
      .map(([, value]) => value);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/@[a-z0-9-]+\./i);
  });

  it("quotabar_status_indicator: the provider's status page, 0 when all is well, 1 for a minor incident", async () => {
    const { handle } = await serve({ providers: ["copilot"] });
    expect(samples((await httpGet(`${handle.url}/metrics`)).body)).toContain('quotabar_status_indicator{provider="copilot"} 0');
    await handle.stop();
    rmSync(join(sim.home, ".cache"), { recursive: true, force: true }); // the status poll is kept for its interval
    sim.sim.setScenario("status-github", "incident");
    const incident = (await serve({ providers: ["copilot"] })).handle;
    expect(samples((await httpGet(`${incident.url}/metrics`)).body)).toContain('quotabar_status_indicator{provider="copilot"} 1');
  });

  it("a load of 1,000 requests to /usage and /metrics causes no upstream request beyond the loop's", async () => {
    const { handle } = await serve();
    const loopRequests = sim.sim.requests.length;
    expect(loopRequests).toBeGreaterThan(0);
    const paths = Array.from({ length: 1000 }, (_, i) => (i % 2 === 0 ? "/usage" : "/metrics"));
    const statuses: number[] = [];
    // 25 at a time
    for (let i = 0; i < paths.length; i += 25) {
      const batch = await Promise.all(paths.slice(i, i + 25).map((path) => httpGet(`${handle.url}${path}`)));
      statuses.push(...batch.map((answer) => answer.status));
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(sim.sim.requests.length).toBe(loopRequests);
    expect(handle.providers.map((id) => handle.state.get(id)?.refreshes)).toEqual([1, 1, 1]);
  });

  it("a provider that starts failing keeps its series, with quotabar_provider_up 0, and /usage says why", async () => {
    const { handle } = await serve({ intervalMs: 50, providers: ["warp"] });
    sim.sim.setScenario("warp", "upstream_500");
    const before = handle.state.get("warp")?.refreshes ?? 0;
    await refreshed(handle, before + 2);
    const lines = samples((await httpGet(`${handle.url}/metrics`)).body);
    expect(lines).toContain('quotabar_provider_up{provider="warp"} 0');
    expect(lines).toContain('quotabar_meter_used_percent{provider="warp",meter="primary"} 81');
    expect(lines).toContain('quotabar_meter_used{provider="warp",meter="primary",unit="credits"} 1215');
    const warp = JSON.parse((await httpGet(`${handle.url}/usage`)).body).providers[0];
    expect([warp.ok, warp.error.code]).toEqual([false, "upstream"]);
  });

  it("with a token, every request needs `Authorization: Bearer <token>`; without one, only a loopback Host is answered", async () => {
    const { handle } = await serve({ token: TOKEN });
    const refusals: Record<string, string>[] = [
      {},
      { authorization: "Bearer wrong-token-of-some-length" },
      { authorization: TOKEN },
      { authorization: `Basic ${TOKEN}` },
    ];
    for (const headers of refusals) {
      const refused = await httpGet(`${handle.url}/metrics`, headers);
      expect(refused.status, JSON.stringify(headers)).toBe(401);
      expect(refused.headers["www-authenticate"]).toBe('Bearer realm="quotabar"');
      expect(refused.body).not.toContain("quotabar_");
    }
    expect((await httpGet(`${handle.url}/metrics`, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    await handle.stop();

    const open = (await serve()).handle;
    // a page on another site whose name was rebound to 127.0.0.1 sends its own name as Host
    expect((await httpGet(`${open.url}/usage`, { host: "evil.example:9464" })).status).toBe(403);
    expect((await httpGet(`${open.url}/usage`, { host: `localhost:${new URL(open.url).port}` })).status).toBe(200);
  });
});

describe("quotabar serve: the page's files and headers", () => {
  const POLICY = "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'";

  it("every answer carries the policy, nosniff and no-referrer; / is the page; /usage says the refresh interval", async () => {
    const { handle } = await serve({ intervalMs: 120_000 });
    for (const path of ["/", "/page.css", "/favicon.svg", "/usage", "/history", "/healthz", "/metrics", "/nope"]) {
      const answer = await httpGet(`${handle.url}${path}`);
      expect(answer.headers["content-security-policy"], path).toBe(POLICY);
      expect(answer.headers["x-content-type-options"], path).toBe("nosniff");
      expect(answer.headers["referrer-policy"], path).toBe("no-referrer");
    }
    const page = await httpGet(`${handle.url}/`);
    expect([page.status, page.headers["content-type"]]).toEqual([200, "text/html; charset=utf-8"]);
    // one script, from this server, and no inline code of any kind
    expect(page.body.match(/<script\b[^>]*>/g)).toEqual(['<script src="page.js" defer>']);
    expect(page.body).not.toMatch(/\son[a-z]+=|style=|javascript:|https?:\/\//i);
    expect((await httpGet(`${handle.url}/page.css`)).headers["content-type"]).toBe("text/css; charset=utf-8");
    expect((await httpGet(`${handle.url}/usage`)).headers["quotabar-refresh-interval"]).toBe("120");
    // only the page's own names are files: nothing else reaches the file system
    for (const path of ["/index.html", "/page.ts", "/../page-files.ts", "/%2e%2e/http-api.ts"])
      expect((await httpGet(`${handle.url}${path}`)).status, path).toBe(404);
  });

  it("with a token, the page's files are public and its data is not; without one, the page too needs a loopback Host", async () => {
    const { handle } = await serve({ token: TOKEN });
    for (const path of ["/", "/page.css", "/favicon.svg"]) expect((await httpGet(`${handle.url}${path}`)).status, path).toBe(200);
    for (const path of ["/usage", "/history", "/healthz", "/metrics"])
      expect((await httpGet(`${handle.url}${path}`)).status, path).toBe(401);
    await handle.stop();
    const open = (await serve()).handle;
    for (const path of ["/", "/page.css", "/history"])
      expect((await httpGet(`${open.url}${path}`, { host: "evil.example:9464" })).status, path).toBe(403);
  });

  it("GET /history: the readings of each meter's current window, as `quotabar history --json` shapes them", async () => {
    const { handle } = await serve({ intervalMs: 50, providers: ["warp", "zai"] });
    // readings are kept to the second: until two seconds have had one
    const read = async () => JSON.parse((await httpGet(`${handle.url}/history`)).body) as HistoryDocument;
    let doc = await read();
    while ((doc.providers[0]?.meters[0]?.points.length ?? 0) < 2 || doc.providers.length < 2) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      doc = await read();
    }
    expect(doc.version).toBe(1);
    expect(doc.providers.map((p) => p.provider)).toEqual(["warp", "zai"]);
    const warp = doc.providers[0]?.meters.find((m) => m.meter === "primary");
    expect(warp).toMatchObject({ label: "Credits", unit: "credits" });
    // a flat run is kept as its first and last reading, all of one window
    expect(warp?.points.length).toBeGreaterThanOrEqual(2);
    expect(new Set(warp?.points.map((p) => p.segment)).size).toBe(1);
    expect(warp?.points.every((p) => p.usedPercent === 81 && p.used === 1215 && p.limit === 1500)).toBe(true);
  });
});

describe("quotabar serve, the command", () => {
  it("refuses to listen beyond loopback without a token (exit 2, and why), or with a short one", async () => {
    const open = await runCli(["serve", "--host", "0.0.0.0", "--port", "0"], sim.env());
    expect(open.code).toBe(2);
    expect(open.stderr).toContain("Refusing to serve on 0.0.0.0 without a token");
    expect(open.stderr).toContain("--token <file>");
    const dir = mkdtempSync(join(tmpdir(), "qb-token-"));
    writeFileSync(join(dir, "short"), "abc\n");
    const short = await runCli(["serve", "--host", "0.0.0.0", "--port", "0", "--token", join(dir, "short")], sim.env());
    expect(short.code).toBe(2);
    expect(short.stderr).toContain("at least 16 characters");
    const missing = await runCli(["serve", "--port", "0", "--token", join(dir, "none")], sim.env());
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining(`Cannot read the token file ${join(dir, "none")}`)]);
    const fast = await runCli(["serve", "--port", "0", "--interval", "1s"], sim.env());
    expect([fast.code, fast.stderr]).toEqual([2, expect.stringContaining("Invalid --interval: 1s")]);
    expect(sim.sim.requests).toEqual([]);
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`serves on the port it prints, asks for QUOTABAR_SERVE_TOKEN, and stops cleanly on ${signal} (exit 0)`, async () => {
      const env = { PATH: process.env.PATH, QUOTABAR_SECRET_STORE: "memory", ...sim.env(), HOME: sim.home, QUOTABAR_SERVE_TOKEN: TOKEN };
      const child = spawn(process.execPath, [BIN, "serve", "--port", "0", "-p", "openrouter"], { env, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stderr.on("data", (d) => (stderr += d));
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (d) => {
          stdout += d;
          const found = /on (http:\/\/127\.0\.0\.1:\d+):/.exec(stdout);
          if (found) resolve(found[1] as string);
        });
        child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
      });
      expect(stdout).toContain("Serving 1 provider (openrouter)");
      expect((await httpGet(`${url}/healthz`)).status).toBe(401);
      const auth = { authorization: `Bearer ${TOKEN}` };
      expect((await httpGet(`${url}/healthz`, auth)).status).toBe(200);
      let doc = JSON.parse((await httpGet(`${url}/usage`, auth)).body);
      while (doc.providers.length === 0) doc = JSON.parse((await httpGet(`${url}/usage`, auth)).body);
      expect(doc.providers[0]).toMatchObject({ id: "openrouter", ok: true });
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      child.kill(signal);
      expect(await exited).toBe(0);
      await expect(httpGet(`${url}/healthz`, auth)).rejects.toThrow(/ECONNREFUSED/);
    });
  }
});
