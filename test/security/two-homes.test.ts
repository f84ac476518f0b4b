import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OLLAMA_TEST_SESSION } from "../../providers/ollama/simulator.js";
import { VERTEX_ACCESS_TOKEN } from "../../providers/vertexai/simulator.js";
import { ProviderSimulator } from "../../simulator/server.js";
import { killStarted, privateKeyring, requireBinaries } from "../browser/real-browsers.js";
import { runCli } from "../helpers/cli.js";
import { tempHome } from "../helpers/harness.js";

/**
 * Two people, or one person with two HOMEs (a container, a test run, a second config directory),
 * side by side on one machine and one user account: neither sees the other's cached cookies, minted
 * tokens or snapshots, whether secrets are kept in a file (Linux without a Secret Service) or in a
 * Secret Service both HOMEs share (where entries are named after their config directory).
 */

const run = promisify(execFile);
type Provider = { id: string; ok: boolean; error: { code: string } | null; primary: unknown };

/** A Firefox profile (legacy root) holding an ollama.com session cookie, as Firefox stores it (user_version 17: expiry in ms). */
function firefoxWithOllamaSession(home: string): string {
  const root = join(home, ".mozilla", "firefox");
  mkdirSync(join(root, "main.default-release"), { recursive: true });
  writeFileSync(join(root, "profiles.ini"), "[Profile0]\nName=main\nIsRelative=1\nPath=main.default-release\nDefault=1\n");
  const Database = createRequire(import.meta.url)("better-sqlite3") as new (path: string) => {
    exec(sql: string): void;
    prepare(sql: string): { run(...values: unknown[]): void };
    close(): void;
  };
  const db = new Database(join(root, "main.default-release", "cookies.sqlite"));
  db.exec(
    "CREATE TABLE moz_cookies (id INTEGER PRIMARY KEY, originAttributes TEXT NOT NULL DEFAULT '', name TEXT, value TEXT, host TEXT, path TEXT, expiry INTEGER, lastAccessed INTEGER, creationTime INTEGER, isSecure INTEGER, isHttpOnly INTEGER); PRAGMA user_version = 17;",
  );
  const now = Date.now();
  db.prepare(
    "INSERT INTO moz_cookies (name, value, host, path, expiry, lastAccessed, creationTime, isSecure, isHttpOnly) VALUES (?, ?, ?, '/', ?, ?, ?, 1, 1)",
  ).run("__Secure-session", OLLAMA_TEST_SESSION, "ollama.com", now + 86_400_000, now * 1000, now * 1000);
  db.close();
  return root;
}

describe("two HOMEs on one machine share nothing", () => {
  let sim: ProviderSimulator;
  const homes: string[] = [];
  const tokenRequests = () => sim.requests.filter((r) => r.providerId === "vertexai" && r.path === "/token").length;

  /** A user's HOME: Vertex AI's gcloud files, Ollama to be read from Firefox, quotabar's default config directory. */
  async function newHome(options: { firefox: boolean }): Promise<string> {
    const home = tempHome();
    homes.push(home);
    await sim.seedHome(home, ["vertexai"]);
    mkdirSync(join(home, ".config", "quotabar"), { recursive: true });
    writeFileSync(
      join(home, ".config", "quotabar", "config.json"),
      JSON.stringify({ version: 1, providers: [{ id: "ollama", browsers: ["firefox"] }] }),
    );
    if (options.firefox) firefoxWithOllamaSession(home);
    return home;
  }

  beforeAll(async () => {
    sim = await ProviderSimulator.start();
  });
  afterEach(() => {
    sim.requests.length = 0;
  });
  afterAll(async () => {
    await killStarted();
    await sim.stop();
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  });

  /** The built CLI as the user of `home` runs it: the secret store as quotabar chooses it (`auto`), unless `env` says. */
  const as = (home: string, env: Record<string, string | undefined> = {}) => ({
    async usage(): Promise<Record<string, Provider>> {
      const result = await runCli(["-p", "vertexai", "-p", "ollama", "--json"], cliEnv(home, env));
      const providers = (JSON.parse(result.stdout) as { providers: Provider[] }).providers;
      return Object.fromEntries(providers.map((p) => [p.id, p]));
    },
    async found(): Promise<Record<string, boolean>> {
      const result = await runCli(["providers", "--json"], cliEnv(home, env));
      const listed = JSON.parse(result.stdout) as { id: string; credentialsFound: boolean }[];
      return Object.fromEntries(listed.map((p) => [p.id, p.credentialsFound]));
    },
    clear: () => runCli(["cache", "clear"], cliEnv(home, env)),
  });
  // the simulator's origin map, and none of its keys: every credential comes from the HOME
  const cliEnv = (home: string, env: Record<string, string | undefined>) => ({
    QUOTABAR_ORIGIN_MAP: sim.env().QUOTABAR_ORIGIN_MAP,
    HOME: home,
    QUOTABAR_SECRET_STORE: undefined,
    DBUS_SESSION_BUS_ADDRESS: undefined,
    ...env,
  });

  it("without a Secret Service: each HOME keeps its secrets in its own 0600 file, and `cache clear` empties it", async () => {
    const [a, b] = [await newHome({ firefox: true }), await newHome({ firefox: false })];
    const first = await as(a).usage();
    expect(first.vertexai).toMatchObject({ ok: true });
    expect(first.ollama).toMatchObject({ ok: true });
    expect(tokenRequests()).toBe(1);
    const file = join(a, ".config", "quotabar", "secrets.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toContain(OLLAMA_TEST_SESSION);
    expect(readFileSync(file, "utf8")).toContain(VERTEX_ACCESS_TOKEN);

    // A's second run uses what A kept: no new token, and the cookie even with Firefox gone
    rmSync(join(a, ".mozilla"), { recursive: true });
    expect(await as(a).usage()).toMatchObject({ vertexai: { ok: true }, ollama: { ok: true } });
    expect(tokenRequests()).toBe(1);

    // B (same gcloud credentials, no browser) sees none of it: it mints its own token, finds no cookie
    expect((await as(b).found()).ollama).toBe(false);
    const other = await as(b).usage();
    expect(other.vertexai).toMatchObject({ ok: true });
    expect(other.ollama).toMatchObject({ ok: false, primary: null, error: { code: "not_configured" } });
    expect(tokenRequests()).toBe(2);
    expect(existsSync(join(b, ".cache", "quotabar", "snapshots", "ollama.json"))).toBe(false);

    expect((await as(a).found()).ollama).toBe(true); // from the cached header alone
    expect(await as(a).clear()).toMatchObject({ code: 0 });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ version: 1, entries: {} });
    expect((await as(a).found()).ollama).toBe(false);
  });

  const keyringBins = requireBinaries("dbus-run-session", "gnome-keyring-daemon", "secret-tool");
  it.skipIf(!keyringBins)(
    "with one Secret Service for both: entries are named after their config directory, and `cache clear` removes them",
    async () => {
      const bus = await privateKeyring(join(tempHome(), "keyring"));
      const onBus = { DBUS_SESSION_BUS_ADDRESS: bus };
      const inKeyring = async () =>
        (await run("secret-tool", ["search", "--all", "service", "quotabar"], { env: { ...process.env, ...onBus } })).stdout;
      const [a, b] = [await newHome({ firefox: true }), await newHome({ firefox: false })];

      expect(await as(a, onBus).usage()).toMatchObject({ vertexai: { ok: true }, ollama: { ok: true } });
      expect(existsSync(join(a, ".config", "quotabar", "secrets.json"))).toBe(false); // the Secret Service was there: no file
      const aDir = join(a, ".config", "quotabar");
      expect(await inKeyring()).toContain(`label = keyring:cookie:ollama|${aDir}@quotabar`);

      expect((await as(b, onBus).found()).ollama).toBe(false);
      expect(await as(b, onBus).usage()).toMatchObject({
        vertexai: { ok: true },
        ollama: { ok: false, error: { code: "not_configured" } },
      });
      expect(tokenRequests()).toBe(2); // B minted its own token

      expect(await as(a, onBus).clear()).toMatchObject({ code: 0 });
      expect(await inKeyring()).not.toContain(aDir);
      expect(await inKeyring()).toContain(join(b, ".config", "quotabar")); // B's token stays: only A's directory was cleared
    },
  );
});
