import { execFile, execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AMP_TEST_SESSION } from "../../providers/amp/simulator.js";
import { KIMI_TEST_TOKEN } from "../../providers/kimi/simulator.js";
import { AUGMENT_TEST_SESSION } from "../../providers/augment/simulator.js";
import { CURSOR_SIM } from "../../providers/cursor/simulator.js";
import { CLAUDE_TEST_SESSION } from "../../providers/claude/simulator.js";
import { MINIMAX_TEST_COOKIE, MINIMAX_WEB_TEST_TOKEN } from "../../providers/minimax/simulator.js";
import { OLLAMA_TEST_SESSION } from "../../providers/ollama/simulator.js";
import { OPENCODE_TEST_SESSION } from "../../providers/opencode/simulator.js";
import { ProviderSimulator } from "../../simulator/server.js";
import { runCli, type CliResult } from "../helpers/cli.js";
import { killStarted, privateKeyring, requireBinaries, startDetached } from "./real-browsers.js";

/**
 * The "done means", on this machine: a real headless Chromium signs in to the five cookie
 * providers (an https loopback site plays their hosts and sets the session cookies, and MiniMax's
 * web app token in Local Storage), then the built `quotabar` runs as a user would, with HOME on that
 * profile, QUOTABAR_ORIGIN_MAP on the simulator, no configuration, and the cookie cache in a private
 * gnome-keyring (its own D-Bus session: no test touches a real keychain).
 */
const bins = requireBinaries("chromium", "dbus-run-session", "gnome-keyring-daemon", "secret-tool", "openssl", "script");
const run = promisify(execFile);

const PROVIDERS = ["kimi", "ollama", "opencode", "amp", "minimax", "augment", "cursor", "claude"] as const;
const MINIMAX_SESSION = MINIMAX_TEST_COOKIE.slice(MINIMAX_TEST_COOKIE.indexOf("=") + 1);
/** Every secret the profile holds: none may show up in any output or in a file outside the browser and the keyring. */
const SECRETS = [
  KIMI_TEST_TOKEN,
  OLLAMA_TEST_SESSION,
  OPENCODE_TEST_SESSION,
  AMP_TEST_SESSION,
  MINIMAX_SESSION,
  MINIMAX_WEB_TEST_TOKEN,
  AUGMENT_TEST_SESSION,
  CURSOR_SIM.appToken,
  CLAUDE_TEST_SESSION,
];

/** What each host's sign-in leaves in the browser: its cookies (Set-Cookie) and, for MiniMax, the web app's token. */
const SIGN_INS: Record<string, { cookies: string[]; script?: string }> = {
  "www.kimi.com": {
    cookies: [
      `kimi-auth=${KIMI_TEST_TOKEN}; Domain=kimi.com; Path=/; Secure; HttpOnly; Max-Age=86400`,
      "_ga=GA1.1.5; Domain=kimi.com; Path=/; Max-Age=86400",
    ],
  },
  "ollama.com": {
    cookies: [`__Secure-session=${OLLAMA_TEST_SESSION}; Path=/; Secure; HttpOnly; Max-Age=86400`, "theme=dark; Path=/; Max-Age=86400"],
  },
  "opencode.ai": {
    cookies: [
      `__Host-auth=${OPENCODE_TEST_SESSION}; Path=/; Secure; HttpOnly; Max-Age=86400`,
      "_ga=GA1.1.918273645; Domain=opencode.ai; Path=/; Max-Age=86400",
    ],
  },
  "ampcode.com": {
    cookies: [
      `session=${AMP_TEST_SESSION}; Path=/; Secure; HttpOnly; Max-Age=86400`,
      "ajs_anonymous_id=amp-sim-anonymous-42; Path=/; Max-Age=86400",
    ],
  },
  "app.augmentcode.com": {
    cookies: [
      `_session=${AUGMENT_TEST_SESSION}; Path=/; Secure; HttpOnly; Max-Age=86400`,
      "ajs_anonymous_id=anon-42; Path=/; Max-Age=86400",
    ],
  },
  "cursor.com": {
    cookies: [
      `WorkosCursorSessionToken=${CURSOR_SIM.session}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=86400`,
      "NEXT_LOCALE=en; Path=/; Max-Age=86400",
    ],
  },
  "claude.ai": {
    cookies: [
      `sessionKey=${CLAUDE_TEST_SESSION}; Domain=claude.ai; Path=/; Secure; HttpOnly; Max-Age=86400`,
      "anthropic-device-id=device-42; Domain=claude.ai; Path=/; Max-Age=86400",
    ],
  },
  "platform.minimax.io": {
    cookies: [`HERTZ-SESSION=${MINIMAX_SESSION}; Domain=minimax.io; Path=/; Secure; HttpOnly; Max-Age=86400`],
    script: `localStorage.setItem("persist:root", ${JSON.stringify(JSON.stringify({ auth: JSON.stringify({ accessToken: MINIMAX_WEB_TEST_TOKEN }) }))});`,
  },
};

/** The https site the browser signs in to: every host maps to it (`--host-resolver-rules`), its certificate is self-signed. */
async function startSignInSite(dir: string): Promise<{ port: number; server: Server }> {
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=quotabar-e2e"],
    {
      stdio: "ignore",
    },
  );
  const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (request, response) => {
    const signIn = SIGN_INS[(request.headers.host ?? "").replace(/:\d+$/, "")];
    if (!signIn || !request.url?.startsWith("/sign-in")) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "set-cookie": signIn.cookies });
    response.end(`<!doctype html><title>signed in</title><script>${signIn.script ?? ""}</script><p>signed in</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

/** Headless Chromium (the basic store unless told) loads one page of the sign-in site under its real host name, then exits. */
async function signInWithChromium(userData: string, port: number, host: string, env: NodeJS.ProcessEnv, passwordStore = "basic") {
  await run(
    "chromium",
    [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      `--password-store=${passwordStore}`,
      `--user-data-dir=${userData}`,
      `--host-resolver-rules=MAP * 127.0.0.1:${port}`,
      "--ignore-certificate-errors",
      "--virtual-time-budget=3000",
      "--dump-dom",
      `https://${host}/sign-in`,
    ],
    { env, timeout: 90_000 },
  );
}

/** Every file under `dir` (but the skipped folders), for a look at what quotabar wrote. */
function filesUnder(dir: string, skip: readonly string[]): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => join(dir, name))
    .filter((path) => !skip.some((s) => path.startsWith(s)) && lstatSync(path).isFile());
}

interface Usage {
  id: string;
  ok: boolean;
  source: string | null;
  primary: { usedPercent: number } | null;
  error: { code: string; message: string; hint: string | null } | null;
}

describe.skipIf(!bins)("the cookie providers from a real Chromium profile, end to end (the built CLI)", () => {
  let sim: ProviderSimulator;
  let site: { port: number; server: Server };
  let scratch: string;
  let home: string;
  let bus: string;
  let originMap: string;
  const outputs: string[] = [];

  /** The built bin as a user runs it: HOME, the simulator's origin map, nothing configured; the OS keyring is the private one unless told. */
  async function quotabar(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
    const result = await runCli(args, {
      HOME: home,
      QUOTABAR_ORIGIN_MAP: originMap,
      DBUS_SESSION_BUS_ADDRESS: bus,
      QUOTABAR_SECRET_STORE: undefined,
      ...env,
    });
    outputs.push(result.stdout, result.stderr);
    return result;
  }
  async function usage(id: string, env: Record<string, string | undefined> = {}): Promise<Usage> {
    const result = await quotabar(["-p", id, "--json"], env);
    expect(result.stderr, id).not.toMatch(/Error:|at .+\.js:\d+/);
    return (JSON.parse(result.stdout) as { providers: Usage[] }).providers[0] as Usage;
  }
  /** A HOME of its own for a failure case: the cache in memory, no keyring, the main profile untouched. */
  const alone = (dir: string) => ({ HOME: dir, QUOTABAR_SECRET_STORE: "memory", DBUS_SESSION_BUS_ADDRESS: undefined });
  const chromiumOf = (dir: string) => join(dir, ".config", "chromium");

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "quotabar-e2e-"));
    home = join(scratch, "home");
    mkdirSync(home);
    sim = await ProviderSimulator.start();
    originMap = sim.env().QUOTABAR_ORIGIN_MAP as string;
    site = await startSignInSite(scratch);
    bus = await privateKeyring(join(scratch, "keyring-home"));
    for (const host of Object.keys(SIGN_INS)) await signInWithChromium(chromiumOf(home), site.port, host, { ...process.env, HOME: home });
  });

  afterAll(async () => {
    await killStarted();
    await sim?.stop();
    await new Promise<void>((resolve) => (site ? site.server.close(() => resolve()) : resolve()));
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("first run: -p kimi, ollama, opencode, amp, minimax, augment, cursor and claude read usage from the signed-in profile, with no configuration", async () => {
    for (const id of PROVIDERS) {
      const found = await usage(id);
      expect(found, `${id}: ${JSON.stringify(found.error)}`).toMatchObject({ id, ok: true, source: "web", error: null });
      expect(found.primary, id).not.toBeNull();
    }
  });

  it("keeps each header in the OS secret store, so a second run reads no browser store (the profile is gone meanwhile)", async () => {
    const { stdout } = await run("secret-tool", ["search", "--all", "service", "quotabar"], {
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: bus },
    });
    // each entry is named after the config directory it belongs to: another HOME never sees it
    const configDir = join(home, ".config", "quotabar");
    for (const id of PROVIDERS) expect(stdout).toContain(`label = keyring:cookie:${id}|${configDir}@quotabar`);
    // MiniMax's entry keeps the web app's token beside the header: the next run needs no Local Storage either
    expect(stdout).toContain(MINIMAX_WEB_TEST_TOKEN);
    const away = join(scratch, "chromium-away");
    renameSync(chromiumOf(home), away);
    try {
      for (const id of PROVIDERS) expect(await usage(id), id).toMatchObject({ ok: true, source: "web" });
      const text = await quotabar(["-p", "ollama", "-p", "amp"]);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/Ollama/);
    } finally {
      renameSync(away, chromiumOf(home));
    }
  });

  it("`quotabar cookies <id>` shows the chosen profile and cookie names, never a value", async () => {
    const text = await quotabar(["cookies", "ollama", "--no-color"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Ollama: cookies for ollama\.com, www\.ollama\.com; browsers in order: chrome, chromium$/m);
    expect(text.stdout).toMatch(/Chosen: chromium \/ .+ \(__Secure-session, theme\)/);
    const json = JSON.parse((await quotabar(["cookies", "minimax", "--json"])).stdout) as {
      chosen: { browser: string; profile: string; cookieNames: string[] };
      notes: { browser: string; outcome: string; cookieNames?: string[] }[];
    };
    expect(json.chosen).toMatchObject({ browser: "chromium", cookieNames: ["HERTZ-SESSION"] });
    expect(json.chosen.profile).toEqual(expect.any(String));
    // the Local Storage keys it looked at, by name
    expect(json.notes.some((n) => n.cookieNames?.includes("persist:root"))).toBe(true);
  });

  it("says what to do when no browser is installed, or the profile has no cookie for the provider", async () => {
    const empty = join(scratch, "empty-home");
    mkdirSync(empty);
    const none = await usage("ollama", alone(empty));
    expect(none.error).toMatchObject({ code: "not_configured", message: "No Ollama session cookie found." });
    expect(none.error?.hint).toContain("Browsers looked at: not installed here: chrome, chromium.");
    expect(none.error?.hint).toContain("Sign in at https://ollama.com/settings in your browser.");
    expect(none.error?.hint).toContain('Set providers[ollama].browsers (e.g. ["firefox"]) in the config file.');

    const other = join(scratch, "other-home");
    await signInWithChromium(chromiumOf(other), site.port, "ampcode.com", { ...process.env, HOME: other });
    const noCookie = await usage("opencode", alone(other));
    expect(noCookie.error?.message).toBe("No OpenCode session cookie found.");
    expect(noCookie.error?.hint).toMatch(/chromium \(.+\): no usable cookie for opencode\.ai, app\.opencode\.ai/);
    const kimi = await usage("kimi", alone(other));
    expect(kimi.error?.code).toBe("not_configured");
    expect(kimi.error?.hint).toMatch(
      /chromium \(.+\): no usable cookie for www\.kimi\.com, kimi\.com; not installed here: arc, chrome, safari, edge, brave\./,
    );
  });

  it("reads a database a running Chromium holds through a copy, and names a corrupt one", async () => {
    const live = join(scratch, "live-home");
    cpSync(home, live, { recursive: true });
    const running = startDetached(
      "chromium",
      [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--password-store=basic",
        `--user-data-dir=${chromiumOf(live)}`,
        "about:blank",
      ],
      { ...process.env, HOME: live },
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    // Chromium's lock: a symbolic link to its host and process id
    expect(lstatSync(join(chromiumOf(live), "SingletonLock")).isSymbolicLink()).toBe(true);
    expect(await usage("amp", alone(live))).toMatchObject({ ok: true });
    // only this browser: the keyring's D-Bus session goes on for the tests after this one
    const gone = new Promise((resolve) => running.once("exit", resolve));
    process.kill(-(running.pid as number), "SIGTERM");
    await gone;

    const corrupt = join(scratch, "corrupt-home");
    cpSync(home, corrupt, { recursive: true });
    writeFileSync(join(chromiumOf(corrupt), "Default", "Cookies"), "this is not a database".repeat(300));
    rmSync(join(chromiumOf(corrupt), "Default", "Cookies-journal"), { force: true });
    const broken = await usage("amp", alone(corrupt));
    expect(broken.error).toMatchObject({ code: "not_configured", message: "No Amp session cookie found." });
    expect(broken.error?.hint).toMatch(/chromium \(.+\): Cookies could not be read: .*not a database/);
  });

  it("never asks for a browser's key in a run nobody watches, says when it will ask again after a denial, and reads it once someone watches", async () => {
    const keyed = join(scratch, "keyed-home");
    await signInWithChromium(
      chromiumOf(keyed),
      site.port,
      "ollama.com",
      { ...process.env, HOME: keyed, DBUS_SESSION_BUS_ADDRESS: bus },
      "gnome-libsecret",
    );
    const env = { ...alone(keyed), DBUS_SESSION_BUS_ADDRESS: bus };
    const unwatched = await usage("ollama", env);
    expect(unwatched.error?.code).toBe("not_configured");
    expect(unwatched.error?.hint).toMatch(
      /could not be decrypted \(its key is in the OS secret store, which only a run someone watches may ask\)/,
    );

    const until = new Date(Date.now() + 3_600_000).toISOString();
    mkdirSync(join(keyed, ".cache", "quotabar", "browser-cooldown"), { recursive: true });
    writeFileSync(join(keyed, ".cache", "quotabar", "browser-cooldown", "chromium.json"), JSON.stringify({ until }));
    const denied = await usage("ollama", env);
    expect(denied.error?.hint).toContain(`access was denied; not asking again until ${until}`);
    rmSync(join(keyed, ".cache", "quotabar", "browser-cooldown"), { recursive: true });

    // a terminal on stderr: someone watches, so secret-tool reads Chromium's key from the Secret Service
    const out = join(scratch, "watched.json");
    const bin = join(import.meta.dirname, "..", "..", "bin", "run.cjs");
    await run("script", ["-qec", `'${process.execPath}' '${bin}' -p ollama --json > '${out}'`, "/dev/null"], {
      env: {
        PATH: process.env.PATH,
        HOME: keyed,
        QUOTABAR_ORIGIN_MAP: originMap,
        QUOTABAR_SECRET_STORE: "memory",
        DBUS_SESSION_BUS_ADDRESS: bus,
      },
      timeout: 60_000,
    });
    const watched = readFileSync(out, "utf8");
    outputs.push(watched);
    expect((JSON.parse(watched) as { providers: Usage[] }).providers[0]).toMatchObject({ ok: true, source: "web" });
  });

  it("passes over a locked OS secret store (no cached header) and reads the browser: the run still works", async () => {
    const locked = await privateKeyring(join(scratch, "locked-keyring-home"), true);
    for (const id of ["amp", "minimax"]) expect(await usage(id, { DBUS_SESSION_BUS_ADDRESS: locked }), id).toMatchObject({ ok: true });
    // and without any OS secret store at all (no D-Bus session): the header goes to the 0600 file beside the config
    expect(await usage("ollama", { DBUS_SESSION_BUS_ADDRESS: undefined })).toMatchObject({ ok: true });
    const file = join(home, ".config", "quotabar", "secrets.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toContain("quotabar/cookie:ollama");
  }, 60_000); // a private Secret Service to start, and three runs that each wait on it: slow on a loaded machine

  it("put no cookie value in any output, error or file quotabar wrote (outside the browser and the secret store)", () => {
    expect(outputs.length).toBeGreaterThan(10);
    const written = filesUnder(scratch, [join(scratch, "keyring-home"), join(scratch, "chromium-away")]).filter(
      (path) =>
        !path.includes(`${join(".config", "chromium")}`) && !path.endsWith(".pem") && !path.endsWith(join("quotabar", "secrets.json")),
    );
    expect(written.some((path) => path.includes(join(".cache", "quotabar")))).toBe(true);
    for (const secret of SECRETS) {
      for (const output of outputs) expect(output.includes(secret), `a value in an output: ${output.slice(0, 200)}`).toBe(false);
      for (const path of written) expect(readFileSync(path, "utf8").includes(secret), path).toBe(false);
    }
  });
});
