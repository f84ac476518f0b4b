import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GotHttpTransport } from "../../adapters/http/got-http-transport.js";
import { mapUrl, parseOriginMap } from "../../adapters/http/origin-map.js";
import type { QuotabarError } from "../../domain/errors.js";
import { redact } from "../../domain/redact.js";
import { scopedHttp } from "../../domain/scoped-http.js";
import type { HttpTransport } from "../../ports/http-client.js";

let server: Server;
let base: string;
const seen: { method: string; url: string; headers: IncomingMessage["headers"] }[] = [];
let respond: (url: string) => { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } = () => ({
  status: 200,
});

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    const answer = respond(req.url ?? "");
    setTimeout(() => res.writeHead(answer.status, answer.headers).end(answer.body ?? ""), answer.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
  respond = () => ({ status: 200, body: "ok" });
});

/** A provider's scoped client over the got transport: 5 s budget, no secrets. */
const scoped = (transport: HttpTransport) =>
  scopedHttp(transport, {
    service: "Example",
    signal: new AbortController().signal,
    deadline: Date.now() + 5_000,
    budgetMs: 5_000,
    secrets: [],
  });
const client = () => scoped(new GotHttpTransport(parseOriginMap(JSON.stringify({ "https://api.example.com": `${base}/prefix/` }))));

async function failure(promise: Promise<unknown>): Promise<QuotabarError> {
  try {
    await promise;
  } catch (error) {
    return error as QuotabarError;
  }
  throw new Error("expected a failure");
}

describe("got transport under a provider's scoped client", () => {
  it("sends a mapped origin to the replacement with its path prefix, path and query, and a quotabar User-Agent", async () => {
    const response = await client().request({ url: "https://api.example.com/v1/usage?x=1" });
    expect(response.status).toBe(200);
    expect(seen[0]).toMatchObject({ method: "GET", url: "/prefix/v1/usage?x=1" });
    expect(seen[0]!.headers["user-agent"]).toMatch(/^quotabar\/\d+\.\d+\.\d+$/);
  });

  it("lets a provider set its own User-Agent", async () => {
    await client().request({ url: "https://api.example.com/", headers: { "User-Agent": "Warp/1.0" } });
    expect(seen[0]!.headers["user-agent"]).toBe("Warp/1.0");
  });

  it("retries an idempotent request once on 5xx, then maps it to upstream", async () => {
    respond = () => ({ status: 503 });
    const error = await failure(client().request({ url: "https://api.example.com/a" }));
    expect(seen).toHaveLength(2);
    expect(error).toMatchObject({ code: "upstream", status: 503, message: "Example API error: HTTP 503" });
  });

  it("does not retry a POST or a 4xx", async () => {
    respond = () => ({ status: 502 });
    await failure(client().request({ url: "https://api.example.com/a", method: "POST", json: {} }));
    expect(seen).toHaveLength(1);
    seen.length = 0;
    respond = () => ({ status: 404 });
    await failure(client().request({ url: "https://api.example.com/a" }));
    expect(seen).toHaveLength(1);
  });

  it("recovers when the retry succeeds", async () => {
    let calls = 0;
    respond = () => (++calls === 1 ? { status: 500 } : { status: 200, body: "second" });
    const response = await client().request({ url: "https://api.example.com/a" });
    expect(response.body).toBe("second");
  });

  it("maps 401, 403 and 429 with Retry-After", async () => {
    respond = () => ({ status: 401, body: '{"error":"bad token sk-live-123456789"}' });
    const unauthorized = await failure(client().request({ url: "https://api.example.com/a" }));
    expect(unauthorized.code).toBe("unauthorized");
    expect(unauthorized.message).not.toContain("sk-live");
    respond = () => ({ status: 403 });
    expect((await failure(client().request({ url: "https://api.example.com/a" }))).code).toBe("forbidden");
    respond = () => ({ status: 429, headers: { "retry-after": "42" } });
    const limited = await failure(client().request({ url: "https://api.example.com/a" }));
    expect(limited).toMatchObject({ code: "rate_limited", retryAfterSeconds: 42 });
    expect(limited.remedies).toEqual([{ kind: "retry", afterSeconds: 42 }]);
  });

  it("returns accepted statuses as responses", async () => {
    respond = () => ({ status: 400, body: "details" });
    const response = await client().request({ url: "https://api.example.com/a", statusRules: { 400: "pass" } });
    expect(response).toMatchObject({ status: 400, body: "details" });
  });

  it("maps a slow answer to timeout", async () => {
    respond = () => ({ status: 200, delayMs: 2_000 });
    const error = await failure(client().request({ url: "https://api.example.com/a", timeoutMs: 100 }));
    expect(error).toMatchObject({ code: "timeout", message: "Example did not answer within 0.1 s" });
  });

  it("says the provider's budget ran out when the whole fetch is out of time", async () => {
    respond = () => ({ status: 200, delayMs: 2_000 });
    const transport = new GotHttpTransport(parseOriginMap(JSON.stringify({ "https://api.example.com": base })));
    const http = scopedHttp(transport, {
      service: "Example",
      signal: new AbortController().signal,
      deadline: Date.now() + 150,
      budgetMs: 150,
      secrets: [],
    });
    const error = await failure(http.request({ url: "https://api.example.com/a" }));
    expect(error).toMatchObject({ code: "timeout", message: "Example did not answer within 0.2 s" });
  });

  it("maps a refused connection to network", async () => {
    const closed = scoped(new GotHttpTransport(parseOriginMap(JSON.stringify({ "https://api.example.com": "http://127.0.0.1:9" }))));
    const error = await failure(closed.request({ url: "https://api.example.com/a" }));
    expect(error.code).toBe("network");
    expect(error.message).toBe("Example network error: connection to 127.0.0.1:9 was refused");
  });
});

describe("origin map", () => {
  it("maps only listed origins and keeps the replacement's prefix", () => {
    const map = parseOriginMap('{"https://api.github.com": "http://127.0.0.1:9000/gh"}');
    expect(mapUrl(new URL("https://api.github.com/copilot_internal/user?a=b"), map).toString()).toBe(
      "http://127.0.0.1:9000/gh/copilot_internal/user?a=b",
    );
    expect(mapUrl(new URL("https://github.com/login"), map).toString()).toBe("https://github.com/login");
  });

  it("refuses plain http to a non-loopback host, bad JSON and non-objects", () => {
    expect(() => parseOriginMap('{"https://api.github.com": "http://gateway.corp/gh"}')).toThrow(/loopback/);
    expect(parseOriginMap('{"https://api.github.com": "https://gateway.corp/gh"}').size).toBe(1);
    expect(() => parseOriginMap("{nope")).toThrow(/not valid JSON/);
    expect(() => parseOriginMap("[1]")).toThrow(/JSON object/);
  });
});

describe("redact", () => {
  it("hides given secrets and token-shaped strings", () => {
    expect(redact("key abcd1234 failed", ["abcd1234"])).toBe("key *** failed");
    expect(redact("Authorization: Bearer eyJabc.def.ghi-long-token")).toBe("Authorization: ***");
    expect(redact("failed: Bearer eyJabc.def.ghi-long-token")).toBe("failed: Bearer ***");
    expect(redact("token gho_16C7e42F292c6912E7710c838347Ae178B4a")).not.toContain("16C7e42F");
    expect(redact("sk-or-v1-0123456789abcdef")).toBe("sk-or-v1-***");
  });
});
