import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { SimReply, SimRequest, SimulatedUpstream } from "../ports/simulated-upstream.js";
import { SLOW_MS, simulatedUpstreams } from "./upstreams.js";

export interface RecordedRequest extends SimRequest {
  providerId: string;
  origin: string;
  /** Date.now() when the request arrived (to check polling intervals). */
  receivedAt: number;
}

export interface SimulatorOptions {
  providers?: readonly SimulatedUpstream[];
  /** Added to every answer, to measure concurrency. */
  delayMs?: number;
  /** Initial scenario per provider id. */
  scenarios?: Record<string, string>;
  /** Move past timestamps of the fixtures into the future (demo and preview); tests keep them verbatim. */
  liveDates?: boolean;
}

/**
 * The provider simulator: one loopback HTTP server that plays every upstream with routes. Each
 * real origin is served under `/<host>`, so `originMap()` is exactly the QUOTABAR_ORIGIN_MAP to use.
 */
export class ProviderSimulator {
  readonly requests: RecordedRequest[] = [];
  private readonly scenarios = new Map<string, string>();
  private readonly pending = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly providers: readonly SimulatedUpstream[],
    private delayMs: number,
    private readonly liveDates: boolean,
  ) {}

  static async start(options: SimulatorOptions = {}): Promise<ProviderSimulator> {
    // loaded before listening, so a broken upstream never leaves a server holding the process open
    const upstreams = options.providers ?? (await simulatedUpstreams());
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", resolve);
    });
    const { port } = server.address() as AddressInfo;
    const sim = new ProviderSimulator(server, `http://127.0.0.1:${port}`, upstreams, options.delayMs ?? 0, options.liveDates ?? false);
    server.on("request", (req, res) => void sim.handle(req, res));
    try {
      for (const [id, scenario] of Object.entries(options.scenarios ?? {})) sim.setScenario(id, scenario);
    } catch (error) {
      await sim.stop();
      throw error;
    }
    return sim;
  }

  /** `{ "https://openrouter.ai": "http://127.0.0.1:PORT/openrouter.ai", ... }` */
  originMap(): Record<string, string> {
    const map: Record<string, string> = {};
    for (const provider of this.providers) {
      for (const origin of provider.origins) map[origin] = `${this.url}/${new URL(origin).host}`;
    }
    return map;
  }

  /** Environment that points quotabar at the simulator with working credentials. */
  env(): Record<string, string> {
    return Object.assign({ QUOTABAR_ORIGIN_MAP: JSON.stringify(this.originMap()) }, ...this.providers.map((p) => p.env));
  }

  setScenario(providerId: string, scenario: string): void {
    const provider = this.providers.find((p) => p.id === providerId);
    if (!provider) throw new Error(`simulator has no provider ${providerId}`);
    if (!provider.scenarios.includes(scenario) && !COMMON_SCENARIO_NAMES.includes(scenario)) {
      throw new Error(`${providerId} has no scenario ${scenario}; try ${provider.scenarios.join(", ")}`);
    }
    this.scenarios.set(providerId, scenario);
  }

  scenarioOf(providerId: string): string {
    return this.scenarios.get(providerId) ?? this.providers.find((p) => p.id === providerId)?.scenarios[0] ?? "ok";
  }

  /** Lays out every local provider's files under a throwaway home (the demo's), each in its current scenario. */
  async seedHome(home: string): Promise<void> {
    const now = new Date();
    for (const upstream of this.providers) await upstream.seedHome?.(home, this.scenarioOf(upstream.id), (text) => liveDates(text, now));
  }

  setDelay(ms: number): void {
    this.delayMs = ms;
  }

  async stop(): Promise<void> {
    for (const res of this.pending) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.pending.add(res);
    res.on("close", () => this.pending.delete(res));
    try {
      const url = new URL(req.url ?? "/", this.url);
      const [, host = "", ...rest] = url.pathname.split("/");
      const path = `/${rest.join("/")}`;
      const provider = this.providers.find((p) => p.origins.some((o) => new URL(o).host === host));
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const request: SimRequest = {
        method: req.method ?? "GET",
        path,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      const route = provider?.routes.find(
        (r) => r.method === request.method && (typeof r.path === "string" ? r.path === path : r.path.test(path)),
      );
      if (!provider || !route)
        return this.send(res, { status: 404, json: { error: `simulator: no route for ${request.method} /${host}${path}` } });
      this.requests.push({ ...request, providerId: provider.id, origin: `https://${host}`, receivedAt: Date.now() });
      const scenario = this.scenarioOf(provider.id);
      const reply = COMMON_SCENARIOS[scenario]?.(request) ?? (await route.handle(request, scenario));
      const delay = (reply.delayMs ?? 0) + this.delayMs + (scenario === "slow" ? SLOW_MS : 0);
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      this.send(res, reply);
    } catch (error) {
      this.send(res, { status: 500, json: { error: `simulator: ${(error as Error).message}` } });
    }
  }

  private send(res: ServerResponse, reply: SimReply): void {
    if (res.destroyed) return;
    const text = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.body ?? "");
    const body = this.liveDates ? liveDates(text, new Date()) : text;
    const headers = { "content-type": reply.json !== undefined ? "application/json" : "text/plain", ...reply.headers };
    res.writeHead(reply.status ?? 200, headers).end(body);
  }
}

/**
 * Scenarios every upstream plays besides its own: a server error, and a proxy or WAF that echoes
 * the request's headers back in every field an error message is usually read from (to prove no
 * credential is ever printed), with an error status or with 200.
 */
const COMMON_SCENARIOS: Record<string, (request: SimRequest) => SimReply> = {
  upstream_500: () => ({ status: 500, body: "Internal Server Error" }),
  echo_headers: (request) => ({ status: 401, json: echoBody(request) }),
  echo_headers_ok: (request) => ({ status: 200, json: echoBody(request) }),
};

export const COMMON_SCENARIO_NAMES = Object.keys(COMMON_SCENARIOS);

function echoBody(request: SimRequest): unknown {
  const echo = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join("\n");
  return {
    success: false,
    code: 401,
    msg: echo,
    message: echo,
    error: { code: "UNAUTHORIZED", message: echo },
    errors: [{ message: echo }],
    base_resp: { status_code: 1004, status_msg: echo },
    echo: `${echo}\ncookie: ${request.headers.cookie ?? ""}`,
  };
}

const DAY_MS = 86_400_000;
const ISO_TIME = /\b(20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d))/g;
const EPOCH_MS = /\b(1[78]\d{11})\b/g;

/**
 * The reference payloads were written in early 2026, so their reset times lie in the past. For
 * demos, move each past time forward by whole days until it is ahead of now: countdowns look real
 * and the time of day is kept.
 */
export function liveDates(text: string, now: Date): string {
  const forward = (ms: number) => (ms >= now.getTime() ? ms : ms + Math.ceil((now.getTime() - ms) / DAY_MS) * DAY_MS);
  return text
    .replace(ISO_TIME, (iso) => {
      const ms = Date.parse(iso);
      return Number.isNaN(ms) || ms >= now.getTime() ? iso : new Date(forward(ms)).toISOString();
    })
    .replace(EPOCH_MS, (digits) => String(forward(Number(digits))));
}
