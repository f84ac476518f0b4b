import type { ProviderConfigEntry } from "../ports/config-store.js";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { FixtureDates, SimReply, SimRequest, SimRoute, SimulatedUpstream } from "../ports/simulated-upstream.js";
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
  /**
   * Move the fixtures' times to around now (demo and preview): an upstream with `recordedAt` by
   * exactly now - recordedAt, others' past times forward by whole days. Tests keep them verbatim.
   */
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

  /** Lays out every local provider's files (or those of `ids`) under a throwaway home (the demo's), each in its current scenario. */
  async seedHome(home: string, ids?: readonly string[]): Promise<void> {
    for (const upstream of this.providers) {
      if (ids && !ids.includes(upstream.id)) continue;
      await upstream.seedHome?.(home, this.scenarioOf(upstream.id), this.datesOf(upstream));
    }
  }

  /** The config entries of the second accounts the upstreams offer (those of `ids`), credentials under `home`: what the demo's config holds. */
  accountEntries(home: string, ids?: readonly string[]): ProviderConfigEntry[] {
    return this.providers.filter((p) => !ids || ids.includes(p.id)).flatMap((p) => [...(p.accounts?.(home) ?? [])]);
  }

  /** How the times of an upstream's fixtures move: not at all in tests, to around now with live dates. */
  private datesOf(upstream: SimulatedUpstream | undefined): FixtureDates {
    if (!this.liveDates) return (text) => text;
    const now = new Date();
    return (text, recordedAt = upstream?.recordedAt) =>
      recordedAt === undefined ? liveDates(text, now) : shiftDates(text, new Date(recordedAt), now);
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
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const request: SimRequest = {
        method: req.method ?? "GET",
        path,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      const { provider, route } = this.routeOf(host, request);
      if (!provider || !route)
        return this.send(res, { status: 404, json: { error: `simulator: no route for ${request.method} /${host}${path}` } }, undefined);
      this.requests.push({ ...request, providerId: provider.id, origin: `https://${host}`, receivedAt: Date.now() });
      const scenario = this.scenarioOf(provider.id);
      const reply = COMMON_SCENARIOS[scenario]?.(request) ?? (await route.handle(request, scenario));
      const delay = (reply.delayMs ?? 0) + this.delayMs + (scenario === "slow" ? SLOW_MS : 0);
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      this.send(res, reply, provider);
    } catch (error) {
      this.send(res, { status: 500, json: { error: `simulator: ${(error as Error).message}` } }, undefined);
    }
  }

  /**
   * The upstream and route that answer a request. Upstreams may share a host (Google's token
   * endpoint serves Vertex AI and the Gemini CLI): a route whose `accepts` takes the request wins,
   * else a route (without `accepts`) of the first upstream that has the host: a test that puts an
   * upstream first shadows the host's other upstreams, as it always did.
   */
  private routeOf(host: string, request: SimRequest): { provider?: SimulatedUpstream; route?: SimRoute } {
    const candidates = this.providers.flatMap((provider) =>
      provider.origins.some((o) => new URL(o).host === host)
        ? provider.routes
            .filter(
              (r) => r.method === request.method && (typeof r.path === "string" ? r.path === request.path : r.path.test(request.path)),
            )
            .map((route) => ({ provider, route }))
        : [],
    );
    const owner = this.providers.find((provider) => provider.origins.some((o) => new URL(o).host === host));
    return (
      candidates.find(({ route }) => route.accepts?.(request) === true) ??
      candidates.find(({ provider, route }) => provider === owner && !route.accepts) ??
      {}
    );
  }

  private send(res: ServerResponse, reply: SimReply, upstream: SimulatedUpstream | undefined): void {
    if (res.destroyed) return;
    const text = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.body ?? "");
    const body = this.datesOf(upstream)(text, reply.recordedAt);
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
 * For an upstream without `recordedAt`: move each past time forward by whole days until it is
 * ahead of now, keeping the time of day. Countdowns look real, but a window shorter than a day or
 * a time meant to be past (an "updated" time) can come out wrong; `shiftDates` keeps them right.
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

/** Epoch numbers further than this from the recording moment are taken for counts, not times. */
const EPOCH_PLAUSIBLE_MS = 732 * DAY_MS;
/**
 * One pass over a fixture's text: an ISO time (date, time, optional fraction kept verbatim, zone),
 * a quoted `"YYYY-MM-DD"` day, or a 13-digit (milliseconds) or 10-digit (seconds) epoch number.
 */
const FIXTURE_TIME =
  /\b(20\d\d-\d\d-\d\dT\d\d:\d\d(?::\d\d)?)(\.\d+)?(Z|[+-]\d\d:\d\d)|"(20\d\d-\d\d-\d\d)"|\b(1[6-9]\d{11}|1[6-9]\d{8})\b/g;

/**
 * The fixture's text as if it had been fetched now instead of at `recordedAt`: every time moves by
 * exactly now - recordedAt (in whole seconds), so a 5-hour window still resets within 5 hours and
 * an "updated" time stays as far in the past as it was. Each time keeps its shape: an ISO time its
 * precision and offset, an epoch number its unit. A quoted `"YYYY-MM-DD"` is a day and moves by
 * whole calendar days (yesterday stays yesterday). Epoch numbers more than two years from the
 * recording are left alone (counts, ids).
 */
export function shiftDates(text: string, recordedAt: Date, now: Date): string {
  const recorded = recordedAt.getTime();
  if (Number.isNaN(recorded)) throw new Error(`simulator: recordedAt is not a time: ${String(recordedAt)}`);
  const seconds = Math.round((now.getTime() - recorded) / 1000);
  const days = Math.round((startOfUtcDay(now.getTime()) - startOfUtcDay(recorded)) / DAY_MS);
  return text.replace(FIXTURE_TIME, (match, base?: string, fraction?: string, zone?: string, day?: string, epoch?: string) => {
    if (base !== undefined && zone !== undefined) return shiftIso(base, fraction ?? "", zone, seconds) ?? match;
    if (day !== undefined) {
      const at = Date.parse(`${day}T00:00:00Z`);
      return Number.isNaN(at) ? match : `"${new Date(at + days * DAY_MS).toISOString().slice(0, 10)}"`;
    }
    const value = Number(epoch);
    const millis = String(epoch).length === 13;
    if (Math.abs((millis ? value : value * 1000) - recorded) > EPOCH_PLAUSIBLE_MS) return match;
    return String(value + (millis ? seconds * 1000 : seconds));
  });
}

function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** `base` (`YYYY-MM-DDTHH:MM[:SS]`) in `zone`, moved by whole seconds and written back in the same zone and shape. */
function shiftIso(base: string, fraction: string, zone: string, seconds: number): string | null {
  const at = Date.parse(`${base}${zone}`);
  if (Number.isNaN(at)) return null;
  const offsetMinutes = zone === "Z" ? 0 : (zone.startsWith("-") ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const wall = new Date(at + seconds * 1000 + offsetMinutes * 60_000).toISOString().slice(0, base.length);
  return `${wall}${fraction}${zone}`;
}
