import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GotHttpTransport } from "../../adapters/http/got-http-transport.js";
import { parseOriginMap } from "../../adapters/http/origin-map.js";
import { excerptOutsideFetch } from "../../domain/redact.js";
import { scopedHttp } from "../../domain/scoped-http.js";
import { createQuotabar } from "../../index.js";
import { fixturesOf } from "../../simulator/fixtures.js";
import { tempHome } from "../../test/helpers/harness.js";
import { selfSignedCertificate } from "../../test/helpers/self-signed.js";
import type { ProcessRunner } from "../../ports/process-runner.js";
import { listeningPorts, parseListeningPorts, parseProcessList, runningProcesses } from "../kit/index.js";
import { connectCall, endpointsOf, METADATA_BODY, UNLEASH_BODY } from "./connect.js";
import { findLanguageServer } from "./language-server.js";
import { antigravitySnapshot, selectModels, type ModelQuota } from "./policy.js";
import { readQuota } from "./quota.js";

const fixture = fixturesOf(import.meta.url);
const TOKEN = "7c1e2b9a-4d0f-4a55-9b1e-3f2d8c6a0e11";
const CONNECT_PATH = "/exa.language_server_pb.LanguageServerService/";

/**
 * A stand-in for Antigravity's language server, run as a real process named
 * language_server_linux_x64 (a symlink to node): Connect over HTTPS with a self-signed certificate
 * on a random loopback port, plain http on --extension_server_port. The test tells it what to answer
 * and hears every request over the IPC channel; it exits when the test process goes away.
 */
const SERVER_SCRIPT = `
import { createServer as createHttps } from "node:https";
import { createServer as createHttp } from "node:http";
const replies = new Map();
const handler = (scheme) => (req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const method = req.url.slice(req.url.lastIndexOf("/") + 1);
    process.send({ kind: "request", scheme, method, path: req.url, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
    const reply = replies.get(scheme + " " + method) ?? replies.get(method) ?? { status: 404, body: '{"code":"unimplemented"}' };
    res.writeHead(reply.status, { "content-type": "application/json" });
    res.end(reply.body);
  });
};
const https = createHttps({ key: process.env.FAKE_TLS_KEY, cert: process.env.FAKE_TLS_CERT }, handler("https"));
const http = createHttp(handler("http"));
process.on("message", (message) => {
  if (message.replies) {
    replies.clear();
    for (const [key, reply] of Object.entries(message.replies)) replies.set(key, reply);
  }
  process.send({ kind: "ack" });
});
process.on("disconnect", () => process.exit(0));
const flag = process.argv.indexOf("--extension_server_port");
https.listen(0, "127.0.0.1", () => {
  const ready = () => process.send({ kind: "ready", httpsPort: https.address().port });
  if (flag > 0) http.listen(Number(process.argv[flag + 1]), "127.0.0.1", ready);
  else ready();
});
`;

interface Reply {
  status: number;
  body: string;
}
interface Recorded {
  scheme: "https" | "http";
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

const scratch = mkdtempSync(join(tmpdir(), "quotabar-antigravity-"));
const program = join(scratch, "antigravity", "bin", "language_server_linux_x64");
const script = join(scratch, "server.mjs");
const children = new Set<ChildProcess>();
const certificate = selfSignedCertificate();

class FakeLanguageServer {
  readonly requests: Recorded[] = [];
  private acks: (() => void)[] = [];

  private constructor(
    private readonly child: ChildProcess,
    readonly pid: number,
    readonly httpsPort: number,
    readonly extensionPort: number,
  ) {
    child.on("message", (message: { kind: string } & Recorded) => {
      if (message.kind === "request") this.requests.push(message);
      if (message.kind === "ack") this.acks.shift()?.();
    });
  }

  static async start(flags: (extensionPort: number) => string[]): Promise<FakeLanguageServer> {
    const extensionPort = await freePort();
    const child = spawn(program, [script, ...flags(extensionPort)], {
      stdio: ["ignore", "ignore", "inherit", "ipc"],
      env: { PATH: process.env.PATH, FAKE_TLS_KEY: certificate.key, FAKE_TLS_CERT: certificate.cert },
    });
    children.add(child);
    const httpsPort = await new Promise<number>((resolve, reject) => {
      child.once("message", (message: { httpsPort: number }) => resolve(message.httpsPort));
      child.once("exit", (code) => reject(new Error(`the fake language server exited with ${code}`)));
    });
    return new FakeLanguageServer(child, child.pid as number, httpsPort, extensionPort);
  }

  /** What each `scheme method` (or any scheme: `method`) answers from now on; forgets the requests so far. */
  async answer(replies: Record<string, Reply>): Promise<void> {
    // forgotten after the round trip: a request the server saw before it, still on its way over IPC, goes too
    await this.roundTrip({ replies });
    this.requests.length = 0;
  }

  /** Every request it has seen (the IPC channel is ordered, so a round trip flushes them). */
  async seen(): Promise<Recorded[]> {
    await this.roundTrip({});
    return this.requests;
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.kill("SIGKILL");
    await exited;
    children.delete(this.child);
  }

  private roundTrip(message: object): Promise<void> {
    return new Promise((resolve) => {
      this.acks.push(resolve);
      this.child.send(message);
    });
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const ok = (body: string): Reply => ({ status: 200, body });
const HAPPY = { "https GetUnleashData": ok("{}"), "https GetUserStatus": ok(fixture("user-status.json")) };
const launchFlags = (token: string | null) => (extensionPort: number) => [
  "--enable_lsp",
  "--extension_server_port",
  String(extensionPort),
  ...(token ? ["--csrf_token", token] : []),
  "--random_port",
  "--app_data_dir",
  "antigravity",
  "--workspace_id",
  "file_tmp_demo",
];

/** A fake language server for one describe block: started before its tests, stopped after them. */
function runningServer(flags: (extensionPort: number) => string[]): { readonly server: FakeLanguageServer } {
  const state: { server?: FakeLanguageServer } = {};
  beforeAll(async () => {
    state.server = await FakeLanguageServer.start(flags);
  });
  afterAll(() => state.server?.stop());
  return {
    get server() {
      return state.server as FakeLanguageServer;
    },
  };
}

const homes: string[] = [];
/** The library with a fresh HOME each time, so no cached snapshot stands in for a failure. */
function quotabar(env: Record<string, string | undefined> = {}) {
  const home = tempHome();
  homes.push(home);
  return createQuotabar({ env: { HOME: home, PATH: process.env.PATH, ...env } });
}
async function antigravity(env: Record<string, string | undefined> = {}) {
  return (await quotabar(env).usage({ providers: ["antigravity"] })).providers[0]!;
}

beforeAll(() => {
  mkdirSync(join(scratch, "antigravity", "bin"), { recursive: true });
  symlinkSync(process.execPath, program);
  writeFileSync(script, SERVER_SCRIPT);
});

afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of [scratch, ...homes]) rmSync(dir, { recursive: true, force: true });
});

describe("antigravity without its language server", () => {
  it("says the app is not running, and counts as not set up", async () => {
    const usage = await antigravity();
    expect(usage.error).toMatchObject({
      code: "not_configured",
      message: "Antigravity language server not detected. Launch Antigravity and retry.",
    });
    expect(usage.error?.hint).toContain("Start Antigravity");
    const listing = await quotabar().listProviders();
    expect(listing.find((p) => p.id === "antigravity")).toMatchObject({ credentialsFound: false, supported: true });
  });
});

describe("antigravity with a language server started without a CSRF token", () => {
  const running = runningServer(launchFlags(null));

  it("finds the process but asks for a restart, calling nothing", async () => {
    const usage = await antigravity();
    expect(usage.error).toMatchObject({
      code: "not_configured",
      message: "Antigravity CSRF token not found. Restart Antigravity and retry.",
    });
    expect(await running.server.seen()).toEqual([]);
  });
});

describe("antigravity against a running language server (real ps, lsof and loopback TLS)", () => {
  const running = runningServer(launchFlags(TOKEN));

  it("probes with GetUnleashData, reads GetUserStatus and maps Claude, Gemini Pro (Low) and Gemini Flash", async () => {
    await running.server.answer(HAPPY);
    const usage = await antigravity();
    expect(usage).toMatchObject({ ok: true, source: "local", plan: "Google AI Pro", error: null });
    expect(usage.primary).toMatchObject({ label: "Claude Sonnet 4.5", usedPercent: 80, resetsAt: "2026-03-16T03:12:00.000Z", note: null });
    expect(usage.secondary).toMatchObject({ label: "Gemini 3 Pro (Low)", usedPercent: 36, resetsAt: "2026-03-16T02:40:11.000Z" });
    expect(usage.tertiary).toMatchObject({ label: "Gemini 3 Flash", usedPercent: 3, resetsAt: "2026-03-16T01:05:52.000Z" });
    expect(usage.details).toEqual([{ label: "Account", value: "riley@example.org" }]);

    const requests = await running.server.seen();
    expect(requests.map((r) => `${r.scheme} ${r.method}`)).toEqual(["https GetUnleashData", "https GetUserStatus"]);
    for (const request of requests) {
      expect(request.path).toBe(`${CONNECT_PATH}${request.method}`);
      expect(request.headers).toMatchObject({
        "content-type": "application/json",
        "connect-protocol-version": "1",
        "x-codeium-csrf-token": TOKEN,
      });
    }
    expect(JSON.parse(requests[0]!.body)).toEqual(UNLEASH_BODY);
    expect(JSON.parse(requests[1]!.body)).toEqual(METADATA_BODY);
  });

  it("counts a matching process as found credentials", async () => {
    const listing = await quotabar().listProviders();
    expect(listing.find((p) => p.id === "antigravity")?.credentialsFound).toBe(true);
  });

  it("falls back to GetCommandModelConfigs when GetUserStatus answers an error code", async () => {
    await running.server.answer({
      "https GetUnleashData": ok("{}"),
      "https GetUserStatus": ok(fixture("error-code.json")),
      "https GetCommandModelConfigs": ok(fixture("command-model-configs.json")),
    });
    const usage = await antigravity();
    expect(usage).toMatchObject({ ok: true, plan: null, secondary: null, tertiary: null, details: [] });
    expect(usage.primary).toMatchObject({ label: "Gemini 3 Flash", usedPercent: 50, resetsAt: "2026-03-16T02:00:00.000Z" });
    expect((await running.server.seen()).map((r) => `${r.scheme} ${r.method}`)).toEqual([
      "https GetUnleashData",
      "https GetUserStatus",
      "https GetCommandModelConfigs",
    ]);
  });

  it("reports the fallback's error when both quota calls fail", async () => {
    await running.server.answer({
      "https GetUnleashData": ok("{}"),
      GetUserStatus: ok(fixture("error-code.json")),
      GetCommandModelConfigs: ok(fixture("error-code.json")),
    });
    const usage = await antigravity();
    expect(usage.error).toMatchObject({ code: "expired", message: "Antigravity API error: unauthenticated (token expired)" });
  });

  it("repeats a failing HTTPS call over plain http on the extension server port", async () => {
    await running.server.answer({
      "https GetUnleashData": ok("{}"),
      "https GetUserStatus": { status: 503, body: "unavailable" },
      "http GetUserStatus": ok(fixture("user-status.json")),
    });
    const usage = await antigravity();
    expect(usage.primary).toMatchObject({ label: "Claude Sonnet 4.5", usedPercent: 80 });
    const requests = await running.server.seen();
    expect(requests.map((r) => `${r.scheme} ${r.method}`)).toEqual(["https GetUnleashData", "https GetUserStatus", "http GetUserStatus"]);
    expect(requests[2]!.headers["x-codeium-csrf-token"]).toBe(TOKEN);
  });

  it("goes straight to plain http when no port passes the HTTPS probe", async () => {
    await running.server.answer({
      "https GetUnleashData": { status: 404, body: "" },
      "http GetUserStatus": ok(fixture("user-status.json")),
    });
    const usage = await antigravity();
    expect(usage.ok).toBe(true);
    const calls = (await running.server.seen()).map((r) => `${r.scheme} ${r.method}`);
    expect(calls).toEqual(["https GetUnleashData", "http GetUserStatus"]);
  });

  it("says the session expired on 401, and never prints the CSRF token a body echoes", async () => {
    await running.server.answer({
      "https GetUnleashData": ok("{}"),
      GetUserStatus: { status: 401, body: "" },
      GetCommandModelConfigs: { status: 500, body: `bad csrf token ${TOKEN}` },
    });
    const usage = await antigravity();
    expect(usage.error).toMatchObject({ code: "upstream", message: "Antigravity GetCommandModelConfigs: HTTP 500: bad csrf token ***" });
    await running.server.answer({
      "https GetUnleashData": ok("{}"),
      GetUserStatus: { status: 401, body: "" },
      GetCommandModelConfigs: { status: 403, body: "" },
    });
    const expired = await antigravity();
    expect(expired.error).toMatchObject({ code: "expired", message: "Antigravity session expired. Restart Antigravity and retry." });
    expect(JSON.stringify([usage, expired])).not.toContain(TOKEN);
  });

  it("names lsof as the missing piece when it is not on PATH", async () => {
    const emptyPath = mkdtempSync(join(tmpdir(), "quotabar-no-lsof-"));
    homes.push(emptyPath);
    await running.server.answer(HAPPY);
    const usage = await antigravity({ PATH: emptyPath });
    expect(usage.error).toMatchObject({ code: "not_installed", message: "Antigravity port detection needs lsof, which is not on PATH." });
    expect(usage.error?.hint).toBe("Install lsof.");
    expect(await running.server.seen()).toEqual([]);
  });

  it("accepts the self-signed certificate on 127.0.0.1 only: the same call sent elsewhere is verified and refused", async () => {
    await running.server.answer(HAPPY);
    const endpoint = { scheme: "https" as const, port: running.server.httpsPort, csrfToken: TOKEN };
    const http = (originMap: Record<string, string>) =>
      scopedHttp(new GotHttpTransport(parseOriginMap(JSON.stringify(originMap))), {
        service: "Antigravity",
        signal: new AbortController().signal,
        deadline: Date.now() + 10_000,
        budgetMs: 10_000,
        secrets: [TOKEN],
      });
    await expect(connectCall(http({}), endpoint, "GetUnleashData", UNLEASH_BODY)).resolves.toMatchObject({ status: 200 });
    const elsewhere = { [`https://127.0.0.1:${running.server.httpsPort}`]: `https://localhost:${running.server.httpsPort}` };
    await expect(connectCall(http(elsewhere), endpoint, "GetUnleashData", UNLEASH_BODY)).rejects.toMatchObject({
      code: "network",
      message: expect.stringMatching(/TLS certificate check failed for localhost:\d+: self[- ]signed certificate/),
    });
    // the whole fetch pointed elsewhere: HTTPS is refused, so only the plain-http fallback is ever reached
    await running.server.answer({ "https GetUnleashData": ok("{}"), "http GetUserStatus": ok(fixture("user-status.json")) });
    const usage = await antigravity({ QUOTABAR_ORIGIN_MAP: JSON.stringify(elsewhere) });
    expect(usage.ok).toBe(true);
    expect((await running.server.seen()).map((r) => `${r.scheme} ${r.method}`)).toEqual(["http GetUserStatus"]);
  });
});

/**
 * A look-alike of the language server run by another user (`nobody`, started with setpriv: this
 * needs root): plain http on its --extension_server_port, answering every call with a quota of its
 * own making, and printing each request it sees. quotabar trusts only a process of its own user.
 */
const IMPOSTOR = `
import { createServer } from "node:http";
const flag = process.argv.indexOf("--extension_server_port");
const body = process.env.IMPOSTOR_BODY;
createServer((req, res) => {
  process.stdout.write("request " + req.url + "\\n");
  res.writeHead(200, { "content-type": "application/json" });
  res.end(body);
}).listen(Number(process.argv[flag + 1]), "127.0.0.1", () => process.stdout.write("ready\\n"));
`;
const canRunAsNobody =
  process.getuid?.() === 0 && spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "true"]).status === 0;

describe("antigravity with a language server of another user", () => {
  let impostor: ChildProcess | null = null;
  afterAll(() => impostor?.kill("SIGKILL"));

  // elsewhere (not root) test/security/antigravity-owner.test.ts refuses one in a fake process table
  it.skipIf(!canRunAsNobody)("refuses it: nothing is sent to it, and its numbers are never shown", async () => {
    chmodSync(scratch, 0o755); // nobody reaches the program and the script
    const script = join(scratch, "impostor.mjs");
    writeFileSync(script, IMPOSTOR, { mode: 0o644 });
    const port = await freePort();
    const flags = [
      "--enable_lsp",
      "--extension_server_port",
      String(port),
      "--csrf_token",
      "stolen-0123456789",
      "--app_data_dir",
      "antigravity",
    ];
    impostor = spawn("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", program, script, ...flags], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { PATH: process.env.PATH, IMPOSTOR_BODY: fixture("user-status.json").replaceAll("Google AI Pro", "Impersonated Plan") },
    });
    let seen = "";
    await new Promise<void>((resolve, reject) => {
      impostor?.stdout?.on("data", (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes("ready\n")) resolve();
      });
      impostor?.once("exit", (code) => reject(new Error(`the impostor exited with ${code}: ${seen}`)));
    });

    const usage = await antigravity();
    expect(usage).toMatchObject({ ok: false, plan: null, primary: null, error: { code: "not_configured" } });
    expect(usage.error?.message).toMatch(
      /^Antigravity language server not detected: the one running \(pid \d+\) belongs to another user \(uid 65534\), and quotabar only talks to your own\.$/,
    );
    expect(JSON.stringify(usage)).not.toContain("Impersonated");
    expect((await quotabar().listProviders()).find((p) => p.id === "antigravity")?.credentialsFound).toBe(false);
    expect(seen).toBe("ready\n"); // not one request reached it
  });
});

describe("antigravity process and port detection (ps and lsof output)", () => {
  it("picks the Antigravity language server, not another app's nor a grep", () => {
    const server = findLanguageServer(parseProcessList(fixture("ps.txt")));
    expect(server).toEqual({ pid: 48213, csrfToken: TOKEN, extensionServerPort: 52871, extensionCsrfToken: null });
  });

  it("matches every OS's program name by prefix, with a marker, and reads --flag=value forms", () => {
    const lines = [
      " 7 1000 /opt/Antigravity/resources/app/extensions/antigravity/bin/language_server_linux_x64 --csrf_token=abc123 --extension_server_port=4242 --extension_server_csrf_token=def456",
      " 8 1000 C:\\Program Files\\Antigravity\\resources\\app\\extensions\\antigravity\\bin\\language_server_windows_x64.exe --csrf_token xyz",
      " 9 1000 /usr/lib/language_server_linux_x64 --csrf_token nomarker",
    ];
    expect(findLanguageServer(parseProcessList(lines[0]!))).toEqual({
      pid: 7,
      csrfToken: "abc123",
      extensionServerPort: 4242,
      extensionCsrfToken: "def456",
    });
    expect(findLanguageServer(parseProcessList(lines[1]!))?.csrfToken).toBe("xyz");
    expect(findLanguageServer(parseProcessList(lines[2]!))).toBeNull();
  });

  it("prefers a process with a token, reports one without, and takes no flag for a value", () => {
    const noToken = " 5 501 /x/antigravity/language_server_macos --csrf_token --extension_server_port 99999";
    expect(findLanguageServer(parseProcessList(noToken))).toEqual({
      pid: 5,
      csrfToken: null,
      extensionServerPort: null,
      extensionCsrfToken: null,
    });
    const both = `${noToken}\n 6 501 /x/antigravity/language_server_macos --csrf_token t0k3n`;
    expect(findLanguageServer(parseProcessList(both))?.pid).toBe(6);
  });

  it("runs ps and lsof with exactly the arguments the app's own client uses", async () => {
    const calls: string[][] = [];
    const runner: ProcessRunner = {
      which: async (command) => `/usr/bin/${command}`,
      run: async (command, args) => {
        calls.push([command, ...args]);
        const stdout = command.endsWith("ps") ? fixture("ps.txt") : fixture("lsof.txt");
        return { exitCode: command.endsWith("lsof") ? 1 : 0, stdout, stderr: "", timedOut: false };
      },
    };
    expect(await runningProcesses(runner, { service: "Antigravity" })).toHaveLength(6);
    expect(await listeningPorts(runner, 48213, { service: "Antigravity" })).toEqual([52869, 52870, 52871]);
    expect(calls).toEqual([
      ["/usr/bin/ps", "-ax", "-ww", "-o", "pid=,uid=,command="],
      ["/usr/bin/lsof", "-nP", "-iTCP", "-sTCP:LISTEN", "-a", "-p", "48213"],
    ]);
    const failing: ProcessRunner = {
      ...runner,
      run: async () => ({ exitCode: 1, stdout: "", stderr: "ps: not permitted", timedOut: false }),
    };
    await expect(runningProcesses(failing, { service: "Antigravity" })).rejects.toThrow("Antigravity: ps failed: ps: not permitted");
  });

  it("says why no port could be used: none listening yet, or none passing the probe", async () => {
    const refusing = {
      signal: new AbortController().signal,
      request: async () => Promise.reject(new Error("connection refused")),
      excerpt: excerptOutsideFetch,
    };
    const server = { pid: 1, csrfToken: TOKEN, extensionServerPort: null, extensionCsrfToken: null };
    await expect(endpointsOf(refusing, server, [])).rejects.toMatchObject({
      code: "upstream",
      message: "Antigravity is running but not exposing ports yet.",
    });
    await expect(endpointsOf(refusing, server, [52869, 52870])).rejects.toMatchObject({
      code: "network",
      message: "Antigravity port detection failed: no working API port found (connection refused).",
    });
    const withFallback = await endpointsOf(refusing, { ...server, extensionServerPort: 52871, extensionCsrfToken: "other" }, []);
    expect(withFallback).toEqual([{ scheme: "http", port: 52871, csrfToken: "other" }]);
  });

  it("skips lines too long to be a command line, quickly", () => {
    const huge = ` 1 501 /x/antigravity/language_server_linux_x64 --csrf_token ${"a".repeat(200_000)}`;
    expect(parseProcessList(`${huge}\n 2 0 /bin/sh`)).toEqual([{ pid: 2, command: "/bin/sh", uid: 0 }]);
  });

  it("reads listening ports from lsof, de-duplicated and ascending", () => {
    expect(parseListeningPorts(fixture("lsof.txt"))).toEqual([52869, 52870, 52871]);
    const mixed =
      "node 1 u 3u IPv6 0 0t0 TCP [::1]:9000 (LISTEN)\nnode 1 u 4u IPv4 0 0t0 TCP *:80 (LISTEN)\nnode 1 u 5u IPv4 0 0t0 TCP *:80 (LISTEN)\nx 1 u TCP 127.0.0.1:99999 (LISTEN)";
    expect(parseListeningPorts(mixed)).toEqual([80, 9000]);
  });
});

describe("antigravity quota answers and model selection", () => {
  const model = (label: string, remainingFraction: number | null): ModelQuota => ({ label, remainingFraction, resetsAt: null });

  it("follows the spec's order: Claude without thinking, Pro with Low, Gemini with Flash", () => {
    const reading = readQuota("GetUserStatus", fixture("user-status.json"));
    expect(selectModels(reading.models).map((m) => m.label)).toEqual(["Claude Sonnet 4.5", "Gemini 3 Pro (Low)", "Gemini 3 Flash"]);
    expect(selectModels([model("Claude Opus 4 (Thinking)", 0.1), model("Pro Low", 0.9)]).map((m) => m.label)).toEqual([
      "Pro Low",
      "Claude Opus 4 (Thinking)",
    ]);
  });

  it("falls back to the models with the least left, and never shows a label twice", () => {
    const models = [model("GPT-OSS 120B", 0.7), model("Other A", 0.2), model("Other B", 0.5), model("Other C", 0.9)];
    expect(selectModels(models).map((m) => m.label)).toEqual(["Other A", "Other B", "GPT-OSS 120B"]);
    const twins = [model("Claude Sonnet 4.5", 0.4), model("Claude Sonnet 4.5", 0.1), model("Gemini 3 Flash", 1)];
    expect(selectModels(twins).map((m) => [m.label, m.remainingFraction])).toEqual([
      ["Claude Sonnet 4.5", 0.4],
      ["Gemini 3 Flash", 1],
    ]);
  });

  it("reads an absent remaining fraction as used up, with a note, and clamps fractions to 0..1", () => {
    const snapshot = antigravitySnapshot({
      plan: null,
      email: null,
      models: [model("GPT-OSS 120B (Medium)", null), model("Gemini 3 Flash", 1.4)],
    });
    expect(snapshot.primary).toMatchObject({ label: "Gemini 3 Flash", usedPercent: 0, note: null });
    expect(snapshot.secondary).toMatchObject({ usedPercent: 100, note: "No remaining fraction reported: read as used up" });
  });

  it("takes the newer userTier name as the plan and accepts fractional ISO and epoch reset times", () => {
    const body = JSON.stringify({
      code: 0,
      userStatus: {
        userTier: { name: "Google AI Ultra" },
        planStatus: { planInfo: { planDisplayName: "Google AI Pro" } },
        cascadeModelConfigData: {
          clientModelConfigs: [
            { label: "Claude Sonnet 4.5", quotaInfo: { remainingFraction: "0.25", resetTime: "2026-03-16T03:12:00.250Z" } },
            { label: "No quota here", modelOrAlias: { model: "M" } },
            { modelOrAlias: { model: "no label" }, quotaInfo: { remainingFraction: 0.1 } },
          ],
        },
      },
    });
    expect(readQuota("GetUserStatus", body)).toEqual({
      plan: "Google AI Ultra",
      email: null,
      models: [{ label: "Claude Sonnet 4.5", remainingFraction: 0.25, resetsAt: "2026-03-16T03:12:00.250Z" }],
    });
  });

  it("turns bad answers into clear errors", () => {
    expect(() => readQuota("GetUserStatus", "{}")).toThrow("Could not parse Antigravity quota: GetUserStatus has no userStatus");
    expect(() => readQuota("GetCommandModelConfigs", '{"clientModelConfigs":[]}')).toThrow(
      "Could not parse Antigravity quota: No quota models available",
    );
    expect(() =>
      readQuota("GetCommandModelConfigs", '{"clientModelConfigs":[{"label":"x","quotaInfo":{"remainingFraction":"lots"}}]}'),
    ).toThrow("clientModelConfigs[0].quotaInfo.remainingFraction is not a number");
    expect(() => readQuota("GetCommandModelConfigs", '{"code":"resource_exhausted"}')).toThrow("Antigravity API error: resource_exhausted");
    expect(readQuota("GetCommandModelConfigs", '{"code":"OK","clientModelConfigs":[{"label":"x","quotaInfo":{}}]}').models).toHaveLength(1);
  });
});
