import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GotHttpTransport } from "../../adapters/http/got-http-transport.js";
import { parseOriginMap } from "../../adapters/http/origin-map.js";
import type { QuotabarError } from "../../domain/errors.js";
import { scopedHttp } from "../../domain/scoped-http.js";
import { createQuotabar } from "../../index.js";
import type { HttpRequest } from "../../ports/http-client.js";
import type { SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { connectCall, METADATA_BODY } from "../../providers/antigravity/connect.js";
import { copilotDeviceFlow } from "../../providers/copilot/device-flow.js";
import { SESSION_FILE_NAME } from "../../providers/factory/session-file.js";
import { FACTORY_SIM } from "../../providers/factory/simulator.js";
import { GEMINI_SECRETS } from "../../providers/gemini/simulator.js";
import { VERTEX_SECRETS } from "../../providers/vertexai/simulator.js";
import { simulatedUpstreams } from "../../simulator/upstreams.js";
import { simulatedSecrets } from "../helpers/leaks.js";
import { carried, recordingServer, type Recorded, type RecordingServer } from "../helpers/recording-server.js";

/**
 * Secrets never follow a redirect off their origin, and a token request follows none: an upstream
 * (or whoever answers in its place) that redirects elsewhere with a 301, 302, 307 or 308 must never
 * receive a key, a cookie, a CSRF token, a refresh token, a client secret or a device code.
 */

const SECRET = "s3cr3t-0123456789-abcdefghij";
const REDIRECTS = [301, 302, 303, 307, 308] as const;

let origin: RecordingServer;
let elsewhere: RecordingServer;
let upstreams: SimulatedUpstream[];
let home: string;

beforeAll(async () => {
  [origin, elsewhere, upstreams] = await Promise.all([recordingServer(), recordingServer(), simulatedUpstreams()]);
  home = mkdtempSync(join(tmpdir(), "quotabar-redirects-"));
  for (const upstream of upstreams) await upstream.seedHome?.(home, upstream.scenarios[0] as string, (text) => text);
});
afterEach(() => {
  origin.seen.length = 0;
  elsewhere.seen.length = 0;
  rmSync(join(home, ".cache"), { recursive: true, force: true });
});
afterAll(async () => {
  await Promise.all([origin.close(), elsewhere.close()]);
  rmSync(home, { recursive: true, force: true });
});

/** The origin answers every request with `status` to `location(path)`. */
function redirecting(status: number, location: (request: Recorded) => string): void {
  origin.answer = (request, response) => response.writeHead(status, { location: location(request) }).end();
}
const toElsewhere = (request: Recorded) => `${elsewhere.base}${request.url}`;

async function failure(promise: Promise<unknown>): Promise<QuotabarError> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error as QuotabarError,
  );
  if (outcome === null) throw new Error("expected a failure");
  return outcome;
}

describe("the transport's redirect rule", () => {
  const http = (secrets: string[] = [SECRET]) =>
    scopedHttp(new GotHttpTransport(parseOriginMap(JSON.stringify({ "https://api.example.com": origin.base }))), {
      service: "Example",
      signal: new AbortController().signal,
      deadline: Date.now() + 10_000,
      budgetMs: 10_000,
      secrets,
    });
  const url = "https://api.example.com/token";

  const carriers: [string, Partial<HttpRequest>, string[]?][] = [
    ["a JSON body", { method: "POST", json: { grant: { value: SECRET } } }],
    ["a form body", { method: "POST", form: { code: SECRET } }],
    ["the query", { url: `${url}?q=${encodeURIComponent(SECRET)}` }],
    ["any header", { headers: { "X-Thing": `v1 ${SECRET}` } }],
    ["a credential header, whatever its value", { headers: { "X-Codeium-Csrf-Token": "unknown-to-the-fetch" } }, []],
    ["a refresh_token field, whatever its value", { method: "POST", json: { refresh_token: "unknown-to-the-fetch" } }, []],
    ["Authorization", { headers: { Authorization: "Bearer unknown-to-the-fetch" } }, []],
  ];

  for (const status of REDIRECTS) {
    it.each(carriers)(`never follows a ${status} to another port when the secret is in %s`, async (_where, request, secrets) => {
      redirecting(status, toElsewhere);
      const error = await failure(http(secrets).request({ url, ...request }));
      expect(error).toMatchObject({ code: "network" });
      expect(error.message).toContain(`refused to send credentials on a redirect from ${origin.base} to ${elsewhere.base}`);
      expect(error.message).not.toContain(SECRET);
      expect(elsewhere.seen).toEqual([]);
      expect(origin.seen).toHaveLength(1);
    });
  }

  it("never follows a redirect to another host on the same port (127.0.0.1 to localhost)", async () => {
    redirecting(307, (request) => `http://localhost:${origin.port}${request.url}`);
    const error = await failure(http().request({ url, method: "POST", form: { code: SECRET } }));
    expect(error.message).toContain(`refused to send credentials on a redirect from ${origin.base} to http://localhost:${origin.port}`);
    expect(origin.seen).toHaveLength(1);
  });

  it("follows a redirect off the origin when the request carries no secret, and one on the origin when it does", async () => {
    redirecting(302, toElsewhere);
    await expect(http().request({ url: "https://api.example.com/status" })).resolves.toMatchObject({ status: 200 });
    expect(elsewhere.seen.map((r) => r.url)).toEqual(["/status"]);
    origin.seen.length = 0;
    origin.answer = (request, response) =>
      request.url === "/token" ? response.writeHead(307, { location: "/moved" }).end() : response.writeHead(200).end("{}");
    await expect(http().request({ url, method: "POST", form: { code: SECRET } })).resolves.toMatchObject({ status: 200 });
    expect(origin.seen.map((r) => [r.url, r.body])).toEqual([
      ["/token", `code=${SECRET}`],
      ["/moved", `code=${SECRET}`],
    ]);
  });

  it('never follows any redirect for a token request (redirect: "refuse"), not even on its origin: a 3xx is a clear error', async () => {
    for (const status of REDIRECTS) {
      origin.seen.length = 0;
      redirecting(status, () => "/moved");
      const error = await failure(http().request({ url, method: "POST", redirect: "refuse", form: { code: SECRET } }));
      expect(error).toMatchObject({ code: "network" });
      expect(error.message).toBe(
        `Example network error: refused a redirect from ${origin.base} to /moved: a token request never follows one`,
      );
      expect(error.remedies).toContainEqual({ kind: "advice", text: expect.stringContaining("credentials were not sent") });
      expect(origin.seen.map((r) => r.url)).toEqual(["/token"]);
    }
  });
});

describe("every provider, its upstream redirected elsewhere", () => {
  const withOrigins = () => upstreams.filter((u) => u.origins.length > 0 && !u.id.startsWith("status-"));
  const hostOf = (origin: string) => new URL(origin).host;

  /** The library with every provider's origins sent to the redirecting server, credentials as the simulator hands them out. */
  async function readAll(ids: readonly string[], extra: Record<string, string> = {}) {
    const map = Object.fromEntries(upstreams.flatMap((u) => u.origins.map((o) => [o, `${origin.base}/${hostOf(o)}`])));
    const env = {
      ...Object.assign({}, ...upstreams.map((u) => u.env)),
      QUOTABAR_ORIGIN_MAP: JSON.stringify(map),
      HOME: home,
      QUOTABAR_SECRET_STORE: "memory",
      ...extra,
    };
    return createQuotabar({ env }).usage({ providers: ids, timeoutMs: 15_000 });
  }

  it.each([301, 302, 307, 308])("sends no secret to the other origin of a %s, for any provider", async (status) => {
    redirecting(status, toElsewhere);
    const ids = withOrigins().map((u) => u.id);
    const doc = await readAll(ids);
    expect(doc.providers.map((p) => p.id)).toEqual(ids);
    // every provider asked, and was redirected
    for (const upstream of withOrigins()) {
      const asked = origin.seen.some((r) => upstream.origins.some((o) => r.url.startsWith(`/${hostOf(o)}/`)));
      expect(asked, `${upstream.id} never asked its upstream`).toBe(true);
    }
    const secrets = simulatedSecrets(upstreams);
    for (const request of elsewhere.seen) {
      for (const secret of secrets) expect(carried(request), `${request.method} ${request.url} carried a secret`).not.toContain(secret);
    }
    // every request quotabar makes carries a credential: none followed at all
    expect(elsewhere.seen.map((r) => `${r.method} ${r.url}`)).toEqual([]);
    for (const usage of doc.providers) expect(usage.ok, `${usage.id} read a redirect as usage`).toBe(false);
  });

  it("Vertex AI's OAuth refresh follows no redirect, not even on Google's own origin: the client secret and refresh token are posted once", async () => {
    redirecting(307, (request) => `/${request.url.split("/")[1]}/moved`);
    const [vertex] = (await readAll(["vertexai"])).providers;
    expect(vertex?.error?.message).toContain("a token request never follows one");
    expect(origin.seen.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /oauth2.googleapis.com/token"]);
    const form = new URLSearchParams(origin.seen[0]!.body);
    expect(VERTEX_SECRETS).toContain(form.get("client_secret"));
  });

  it("Gemini CLI's OAuth refresh follows no redirect either: its refresh token is posted once, and the CLI's file is left as it was", async () => {
    const creds = join(home, ".gemini", "oauth_creds.json");
    const before = readFileSync(creds);
    redirecting(308, (request) => `/${request.url.split("/")[1]}/moved`);
    const [gemini] = (await readAll(["gemini"])).providers;
    expect(gemini?.error?.message).toContain("a token request never follows one");
    expect(origin.seen.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /oauth2.googleapis.com/token"]);
    expect(GEMINI_SECRETS).toContain(new URLSearchParams(origin.seen[0]!.body).get("refresh_token"));
    expect(readFileSync(creds).equals(before)).toBe(true);
  });

  it("Factory's WorkOS refresh follows no redirect, not even on WorkOS's own origin: the refresh token is posted once", async () => {
    const configDir = join(home, ".config", "quotabar");
    const file = join(configDir, SESSION_FILE_NAME);
    mkdirSync(configDir, { recursive: true });
    writeFileSync(file, JSON.stringify({ refreshToken: FACTORY_SIM.refreshToken }), { mode: 0o600 });
    try {
      redirecting(308, (request) => `/${request.url.split("/")[1]}/moved`);
      const [factory] = (await readAll(["factory"])).providers;
      expect(factory?.ok).toBe(false);
      const workos = origin.seen.filter((r) => r.url.startsWith("/api.workos.com/"));
      expect(workos.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /api.workos.com/user_management/authenticate"]);
      expect(JSON.parse(workos[0]!.body)).toMatchObject({ refresh_token: FACTORY_SIM.refreshToken });
    } finally {
      // the demo's session again (a bearer and a refresh token), for the other tests
      const factory = upstreams.find((u) => u.id === "factory");
      await factory?.seedHome?.(home, "ok", (text) => text);
    }
  });

  it("Copilot's device flow follows no redirect: the device code is posted once, and never to another origin", async () => {
    const flow = (location: (request: Recorded) => string) => {
      origin.answer = (request, response) => response.writeHead(307, { location: location(request) }).end();
      const transport = new GotHttpTransport(parseOriginMap(JSON.stringify({ "https://github.com": `${origin.base}/github.com` })));
      return copilotDeviceFlow({ transport, clock: { now: () => new Date("2026-11-20T10:00:00Z") }, sleep: async () => undefined });
    };
    const code = {
      deviceCode: "3584d83530557fdd1f46af8289938c8ef79f9dc5",
      userCode: "WDJB-MJHT",
      verificationUri: "https://github.com/login/device",
      expiresAt: new Date("2026-11-20T10:15:00Z"),
      intervalSeconds: 1,
    };
    for (const location of [toElsewhere, () => "/github.com/moved"]) {
      origin.seen.length = 0;
      const started = await failure(flow(location).start());
      expect(started.message).toContain("a token request never follows one");
      const polled = await failure(flow(location).poll(code));
      expect(polled.message).toContain("a token request never follows one");
      expect(origin.seen.map((r) => r.url)).toEqual([
        "/github.com/login/device/code",
        ...Array.from({ length: 3 }, () => "/github.com/login/oauth/access_token"),
      ]);
      expect(origin.seen.at(-1)?.body).toContain(code.deviceCode);
    }
    expect(elsewhere.seen).toEqual([]);
  });

  it("Antigravity's CSRF token never follows a redirect to another port of the machine", async () => {
    const csrfToken = "5f7d3a1e-8b2c-4d6e-9f0a-1b2c3d4e5f60";
    for (const [status, secrets] of [
      [307, [csrfToken]],
      [308, []],
      [302, [csrfToken]],
    ] as const) {
      redirecting(status, toElsewhere);
      const http = scopedHttp(new GotHttpTransport(new Map()), {
        service: "Antigravity",
        signal: new AbortController().signal,
        deadline: Date.now() + 10_000,
        budgetMs: 10_000,
        secrets: [...secrets],
      });
      const error = await failure(connectCall(http, { scheme: "http", port: origin.port, csrfToken }, "GetUserStatus", METADATA_BODY));
      expect(error.message).toContain("refused to send credentials on a redirect");
    }
    expect(elsewhere.seen).toEqual([]);
  });
});
