import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isLoopback } from "../../domain/loopback.js";
import { bearerMatches } from "./bearer-token.js";
import type { Environment } from "../../ports/environment.js";
import { costDocument } from "./cost-view.js";
import type { Metrics } from "./metrics.js";
import { isPageFile, pageFile } from "./page-files.js";
import type { ServeState } from "./serve-state.js";

export interface HttpApiOptions {
  state: ServeState;
  metrics: Metrics;
  /** Every request must carry it (`Authorization: Bearer …`); null on loopback without one. */
  token: string | null;
  /** How often each provider is refreshed: /usage says it (Quotabar-Refresh-Interval) so the page polls no slower. */
  intervalMs: number;
  now(): Date;
  /** Where the agents' logs and the cost index are (`/cost`). */
  env: Environment;
}

/**
 * `quotabar serve`'s HTTP side: GET /usage (`?provider=<id>`, repeatable), /history, /healthz and
 * /metrics, answered from the loop's state only: no request ever reaches an upstream; and the page
 * at / (page-files.ts) that shows them. With a token every request for data needs it (the page's
 * own files are public: it asks for the token); without one (loopback only) a request must name a
 * loopback host, so a web page that rebinds its own name to 127.0.0.1 cannot read it.
 */
export function createHttpApi(options: HttpApiOptions): Server {
  const server = createServer(CONNECTION_LIMITS, (req, res) => {
    void handle(req, res, options).catch(() => {
      if (!res.headersSent) send(res, 500, { error: "internal error" });
      else res.destroy();
    });
  });
  return server;
}

/**
 * A request is a few hundred bytes from a scraper on the same network: one whose headers are not in
 * after 5 s (or the whole of it after 10 s) is ended, checked every second. Node's own check runs
 * every 30 s, so 10,000 half-sent connections stayed open that long, each with its socket.
 */
const CONNECTION_LIMITS = { headersTimeout: 5_000, requestTimeout: 10_000, connectionsCheckingInterval: 1_000, keepAliveTimeout: 5_000 };

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  { state, metrics, token, intervalMs, now, env }: HttpApiOptions,
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://quotabar.invalid");
  const page = isPageFile(url.pathname);
  if (token !== null) {
    if (!page && !bearerMatches(req.headers.authorization, token)) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="quotabar"');
      return send(res, 401, { error: "a bearer token is required (Authorization: Bearer <token>)" });
    }
  } else if (!loopbackHost(req.headers.host)) {
    return send(res, 403, { error: "this server answers only requests addressed to a loopback host" });
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.setHeader("Allow", "GET, HEAD");
    return send(res, 405, { error: "only GET and HEAD" });
  }
  if (page) {
    const file = await pageFile(url.pathname);
    if (!file) return send(res, 404, { error: "the page is not built here (npm run build)" });
    res.writeHead(200, { ...COMMON_HEADERS, "Content-Type": file.type });
    return void res.end(req.method === "HEAD" ? undefined : file.body);
  }
  switch (url.pathname) {
    case "/usage": {
      // "claude" asks for every account of it, "claude:work" for one (ids are lower case, labels as written)
      const asked = url.searchParams.getAll("provider").map(askedRef);
      const unknown = asked.filter((ref) => !state.serves(ref));
      if (unknown.length > 0) return send(res, 404, { error: `not served here: ${unknown.join(", ")}`, served: state.providerIds });
      res.setHeader("Quotabar-Refresh-Interval", String(Math.round(intervalMs / 1000)));
      return send(res, 200, state.document(now(), asked.length > 0 ? asked : undefined));
    }
    case "/history":
      return send(res, 200, state.history(now()));
    case "/cost":
      return send(res, 200, await costDocument(env, now()));
    case "/healthz": {
      const refreshed = state.providers().length;
      const body = { status: state.running ? "ok" : "stopped", providers: state.providerIds.length, refreshed };
      return send(res, state.running ? 200 : 503, body);
    }
    case "/metrics": {
      const text = await metrics.text(now());
      res.writeHead(200, { ...COMMON_HEADERS, "Content-Type": metrics.contentType });
      return void res.end(req.method === "HEAD" ? undefined : text);
    }
    default:
      return send(res, 404, { error: "not found; try /, /usage, /history, /cost, /healthz or /metrics" });
  }
}

/**
 * On every answer. The page runs only its own script and style (no inline code, nothing from
 * elsewhere, no form that submits, no framing), and sends no Referer: what it shows is upstream
 * text, written into it as text only (page.ts), and this policy stands behind that.
 */
const COMMON_HEADERS = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Content-Security-Policy": "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'",
};

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { ...COMMON_HEADERS, "Content-Type": "application/json; charset=utf-8" });
  res.end(res.req.method === "HEAD" ? undefined : `${JSON.stringify(body)}\n`);
}

function loopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  try {
    return isLoopback(new URL(`http://${host}`));
  } catch {
    return false;
  }
}

/** Listens on host:port (0: any free port); the URL it answers on. */
export async function listen(server: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${shown}:${address.port}`;
}

function askedRef(text: string): string {
  const ref = text.trim();
  const at = ref.indexOf(":");
  return at < 0 ? ref.toLowerCase() : `${ref.slice(0, at).toLowerCase()}${ref.slice(at)}`;
}
