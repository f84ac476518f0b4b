import { describe, expect, it } from "vitest";
import { GotHttpTransport } from "../../adapters/http/got-http-transport.js";
import { parseOriginMap } from "../../adapters/http/origin-map.js";
import { QuotabarError } from "../../domain/errors.js";
import type { DeviceCode } from "../../ports/device-flow.js";
import type { HttpResponse, HttpTransport, TransportRequest } from "../../ports/http-client.js";
import { useSimulator } from "../../test/helpers/harness.js";
import { copilotDeviceFlow, type Sleep } from "./device-flow.js";
import { COPILOT_DEVICE_TOKEN, COPILOT_SIM_CLIENT_ID, COPILOT_SIM_ENTERPRISE_HOST, COPILOT_SIM_INTERVAL } from "./simulator.js";

const EXPIRED = "The device code expired before it was authorized (codes last about 15 minutes)";
const SIGN_IN_AGAIN = { kind: "login", provider: "copilot" };
const isAbortError = (error: unknown) => error instanceof Error && error.name === "AbortError";

const sim = useSimulator();

/** A clock that only moves when the flow sleeps, and a sleep that returns at once (honouring abort). */
function fakeTime(start = new Date("2026-11-20T10:00:00Z")) {
  let now = start.getTime();
  const sleeps: number[] = [];
  const sleep: Sleep = async (ms, signal) => {
    sleeps.push(ms);
    now += ms;
    signal?.throwIfAborted();
  };
  return { clock: { now: () => new Date(now) }, sleep, sleeps, advance: (ms: number) => (now += ms) };
}

function simulatedFlow(entry?: Record<string, unknown>) {
  const time = fakeTime();
  const transport = new GotHttpTransport(parseOriginMap(JSON.stringify(sim.sim.originMap())));
  return { flow: copilotDeviceFlow({ transport, clock: time.clock, sleep: time.sleep, ...(entry ? { entry } : {}) }), time };
}

async function rejection(promise: Promise<unknown>): Promise<QuotabarError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(QuotabarError);
  return error as QuotabarError;
}

describe("copilot device flow against the simulator", () => {
  it("asks for a device code with the client id and scope read:user, form-encoded, Accept JSON", async () => {
    const { flow, time } = simulatedFlow();
    const code = await flow.start();
    expect(code.userCode).toBe("WDJB-MJHT");
    expect(code.verificationUri).toBe("https://github.com/login/device");
    expect(code.intervalSeconds).toBe(COPILOT_SIM_INTERVAL);
    expect(code.expiresAt.getTime()).toBe(time.clock.now().getTime() + 900_000);
    expect(code.deviceCode).toMatch(/^[0-9a-f]{40}$/);
    const request = sim.sim.requests.at(-1)!;
    expect(request.origin).toBe("https://github.com");
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/login/device/code");
    expect(request.headers.accept).toBe("application/json");
    expect(request.headers["content-type"]).toContain("application/x-www-form-urlencoded");
    const form = new URLSearchParams(request.body);
    expect(form.get("client_id")).toBe(COPILOT_SIM_CLIENT_ID);
    expect(form.get("scope")).toBe("read:user");
  });

  it("polls through authorization_pending and slow_down (interval grows) to the token", async () => {
    const { flow, time } = simulatedFlow();
    const code = await flow.start();
    const pending: { intervalSeconds: number; slowDown: boolean }[] = [];
    const token = await flow.poll(code, { onPending: (state) => pending.push(state) });
    expect(token).toBe(COPILOT_DEVICE_TOKEN);
    // One interval before the first poll, the same before the second, the server's longer one after slow_down.
    expect(time.sleeps).toEqual([1000, 1000, 2000]);
    expect(pending).toEqual([
      { intervalSeconds: 1, slowDown: false },
      { intervalSeconds: 2, slowDown: true },
    ]);
    const polls = sim.sim.requests.filter((r) => r.path === "/login/oauth/access_token");
    expect(polls).toHaveLength(3);
    for (const poll of polls) {
      const form = new URLSearchParams(poll.body);
      expect(form.get("client_id")).toBe(COPILOT_SIM_CLIENT_ID);
      expect(form.get("device_code")).toBe(code.deviceCode);
      expect(form.get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:device_code");
      expect(poll.headers.accept).toBe("application/json");
    }
  });

  it("the token it hands out is accepted by the usage route", async () => {
    const { flow } = simulatedFlow();
    const token = await flow.poll(await flow.start());
    const usage = await sim.quotabar({ COPILOT_API_TOKEN: token }).usage({ providers: ["copilot"] });
    expect(usage.providers[0]!.ok).toBe(true);
  });

  it("ends with code expired and the spec's guidance on expired_token", async () => {
    sim.sim.setScenario("copilot", "device_expired");
    const { flow } = simulatedFlow();
    const code = await flow.start();
    const error = await rejection(flow.poll(code));
    expect(error.code).toBe("expired");
    expect(error.message).toBe(EXPIRED);
    expect(error.remedies).toContainEqual(SIGN_IN_AGAIN);
    expect(error.remedies).toContainEqual({ kind: "advice", text: "The code expired; a new sign-in gets a new code." });
    expect(error.message).not.toContain(code.deviceCode);
  });

  it("gives up by itself once expires_in has passed, even if GitHub keeps saying pending", async () => {
    sim.sim.setScenario("copilot", "device_pending");
    const { flow, time } = simulatedFlow();
    const issued = await flow.start();
    // As if GitHub had said expires_in: 10 (it says 900; the rule is the same, the test is shorter).
    const code = { ...issued, expiresAt: new Date(time.clock.now().getTime() + 10_000) };
    const error = await rejection(flow.poll(code));
    expect(error.code).toBe("expired");
    expect(error.remedies).toContainEqual(SIGN_IN_AGAIN);
    // 10 s at 1 s per poll: the flow stops at the deadline instead of polling forever.
    expect(time.sleeps).toHaveLength(10);
    expect(time.clock.now().getTime()).toBe(code.expiresAt.getTime());
  });

  it("ends with unauthorized when the user denies access", async () => {
    sim.sim.setScenario("copilot", "device_denied");
    const { flow } = simulatedFlow();
    const error = await rejection(flow.poll(await flow.start()));
    expect(error.code).toBe("unauthorized");
    expect(error.message).toBe("Login failed: you denied access on GitHub");
    expect(error.remedies).toContainEqual(SIGN_IN_AGAIN);
    expect(error.message).toContain("you denied access");
  });

  it("rejects with an AbortError when cancelled while polling", async () => {
    sim.sim.setScenario("copilot", "device_pending");
    const { flow } = simulatedFlow();
    const code = await flow.start();
    const controller = new AbortController();
    const error = await flow.poll(code, { signal: controller.signal, onPending: () => controller.abort() }).catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
    expect(sim.sim.requests.filter((r) => r.path === "/login/oauth/access_token")).toHaveLength(1);
  });

  it("signs in on the GitHub Enterprise host of the copilot entry, and its token works there", async () => {
    sim.sim.setScenario("copilot", "enterprise");
    const entry = { id: "copilot", enterpriseHost: COPILOT_SIM_ENTERPRISE_HOST };
    const { flow } = simulatedFlow(entry);
    const code = await flow.start();
    expect(code.verificationUri).toBe(`https://${COPILOT_SIM_ENTERPRISE_HOST}/login/device`);
    const token = await flow.poll(code);
    const origins = new Set(sim.sim.requests.map((r) => r.origin));
    expect([...origins]).toEqual([`https://${COPILOT_SIM_ENTERPRISE_HOST}`]);
    expect(sim.sim.requests.map((r) => r.path)).toContain("/login/oauth/access_token");
    const usage = await sim.quotabar({ COPILOT_API_TOKEN: token }).usage({ providers: ["copilot"] });
    expect(usage.providers[0]!.ok).toBe(true);
  });

  it("refuses a plain-http enterprise host when asked for a code, sending nothing", async () => {
    const { flow } = simulatedFlow({ id: "copilot", enterpriseHost: "http://octocorp.ghe.com" });
    const error = await rejection(flow.start());
    expect(error.code).toBe("not_configured");
    expect(error.message).toBe("The GitHub Enterprise host (enterpriseHost) must use https");
    expect(error.remedies).toContainEqual({
      kind: "set-config",
      provider: "copilot",
      field: "enterpriseHost",
      example: "octocorp.ghe.com",
    });
    expect(sim.sim.requests).toHaveLength(0);
  });

  it("rejects with an AbortError when cancelled before the code arrives", async () => {
    const { flow } = simulatedFlow();
    const controller = new AbortController();
    controller.abort();
    const error = await flow.start(controller.signal).catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
  });
});

/** A transport answering token polls from a script (for answers the simulator does not play). */
function scripted(answers: (string | Error)[]): HttpTransport & { calls: TransportRequest[] } {
  const calls: TransportRequest[] = [];
  return {
    calls,
    async send(request) {
      calls.push(request);
      const next = answers.shift();
      if (next === undefined) throw new Error("script ran out");
      if (next instanceof Error) throw next;
      return { status: 200, headers: {}, body: next, url: request.url } satisfies HttpResponse;
    },
  };
}

const code = (fields: Partial<DeviceCode> = {}): DeviceCode => ({
  deviceCode: "device-secret-0123456789",
  userCode: "ABCD-EFGH",
  verificationUri: "https://github.com/login/device",
  expiresAt: new Date("2026-11-20T10:15:00Z"),
  intervalSeconds: 5,
  ...fields,
});

describe("copilot device flow edge cases", () => {
  const token = JSON.stringify({ access_token: "gho_scripted", token_type: "bearer", scope: "read:user" });

  it("adds 5 s on slow_down when GitHub names no new interval, and keeps it", async () => {
    const time = fakeTime();
    const transport = scripted([JSON.stringify({ error: "slow_down" }), JSON.stringify({ error: "authorization_pending" }), token]);
    const flow = copilotDeviceFlow({ transport, clock: time.clock, sleep: time.sleep });
    expect(await flow.poll(code())).toBe("gho_scripted");
    expect(time.sleeps).toEqual([5000, 10000, 10000]);
    expect(transport.calls.every((c) => c.secrets.includes("device-secret-0123456789"))).toBe(true);
  });

  it("keeps polling through bodies that are not an answer, and through a passing network failure", async () => {
    const time = fakeTime();
    const transport = scripted([
      "<html>proxy</html>",
      JSON.stringify({ token_type: "bearer" }),
      new QuotabarError("network", "Connection reset"),
      new QuotabarError("timeout", "slow"),
      token,
    ]);
    expect(await copilotDeviceFlow({ transport, clock: time.clock, sleep: time.sleep }).poll(code())).toBe("gho_scripted");
  });

  it("gives up after three network failures in a row", async () => {
    const time = fakeTime();
    const failure = () => new QuotabarError("network", "Cannot resolve github.com");
    const transport = scripted([failure(), failure(), failure(), token]);
    const error = await rejection(copilotDeviceFlow({ transport, clock: time.clock, sleep: time.sleep }).poll(code()));
    expect(error.code).toBe("network");
  });

  it("names GitHub's other refusals without echoing free text", async () => {
    const time = fakeTime();
    const transport = scripted([JSON.stringify({ error: "incorrect_client_credentials", error_description: "device-secret-0123456789" })]);
    const error = await rejection(copilotDeviceFlow({ transport, clock: time.clock, sleep: time.sleep }).poll(code()));
    expect(error.code).toBe("unauthorized");
    expect(error.message).toBe("GitHub refused the login (incorrect_client_credentials)");
  });

  it("does not poll at all when the code has already expired", async () => {
    const time = fakeTime(new Date("2026-11-20T10:20:00Z"));
    const transport = scripted([token]);
    const error = await rejection(copilotDeviceFlow({ transport, clock: time.clock, sleep: time.sleep }).poll(code()));
    expect(error.code).toBe("expired");
    expect(transport.calls).toHaveLength(0);
  });

  it("refuses a device-code answer nested 100000 levels deep with a parse error", async () => {
    const deep = `{"device_code":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const transport: HttpTransport = { send: async (r) => ({ status: 200, headers: {}, body: deep, url: r.url }) };
    const error = await rejection(copilotDeviceFlow({ transport, clock: fakeTime().clock }).start());
    expect(error.code).toBe("parse");
    expect(error.message).toBe("Failed to parse GitHub login response: it nests deeper than 64 levels");
  });

  it("reports a refused device-code request with GitHub's error name", async () => {
    const transport: HttpTransport = {
      send: async (r) => ({ status: 400, headers: {}, body: JSON.stringify({ error: "unauthorized_client" }), url: r.url }),
    };
    const error = await rejection(copilotDeviceFlow({ transport, clock: fakeTime().clock }).start());
    expect(error.message).toBe("GitHub refused the device code request (HTTP 400: unauthorized_client)");
  });
});
