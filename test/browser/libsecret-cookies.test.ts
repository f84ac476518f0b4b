import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LibsecretSafeStorage } from "../../adapters/browser/chromium/safe-storage.js";
import { withDatabaseCopy } from "../../adapters/browser/database-copy.js";
import { BetterSqlite } from "../../adapters/sqlite/better-sqlite3.js";
import { NodeProcessRunner } from "../../adapters/process/node-process-runner.js";
import { KeyringSecretStore } from "../../adapters/secrets/keyring-secret-store.js";
import { startCookieSite, type CookieSite } from "./cookie-site.js";
import { spySafeStorage, testAccess } from "./doubles.js";
import { chromiumVisit, killStarted, requireBinaries, startDetached } from "./real-browsers.js";

/**
 * Chromium with the Secret Service (`v11`, credentials.md section 10.5): a private D-Bus session
 * (`dbus-run-session`) with gnome-keyring unlocked on a fixture HOME. Chromium keeps its password
 * there under its own libsecret schema; secret-tool reads it back, the keyring library cannot.
 */
const bins = requireBinaries("chromium", "dbus-run-session", "gnome-keyring-daemon", "secret-tool");
const run = promisify(execFile);

let site: CookieSite;
let home: string;
let bus: string;
let sessionEnv: NodeJS.ProcessEnv;

// the session's one child: unlock the keyring, say where the bus is, then hold the session open until stdin closes
const HOLD =
  'printf %s testpass | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; echo "BUS=$DBUS_SESSION_BUS_ADDRESS"; exec cat >/dev/null';

describe.skipIf(!bins)("Chromium cookie store, real Chromium with gnome-keyring (libsecret, v11)", () => {
  beforeAll(async () => {
    site = await startCookieSite();
    home = mkdtempSync(join(tmpdir(), "quotabar-libsecret-"));
    const session = startDetached("dbus-run-session", ["--", "sh", "-c", HOLD], { ...process.env, HOME: home }, "pipe");
    bus = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: session.stdout as NodeJS.ReadableStream });
      lines.on("line", (line) => line.startsWith("BUS=") && resolve(line.slice(4)));
      session.once("exit", (code) => reject(new Error(`dbus-run-session exited (${code})`)));
    });
    sessionEnv = { ...process.env, HOME: home, DBUS_SESSION_BUS_ADDRESS: bus };
    // the keyring library in this process talks to the same session
    process.env.DBUS_SESSION_BUS_ADDRESS = bus;
    await chromiumVisit(join(home, ".config", "chromium"), site.url("app.example.test"), {
      passwordStore: "gnome-libsecret",
      env: sessionEnv,
    });
  });

  afterAll(async () => {
    delete process.env.DBUS_SESSION_BUS_ADDRESS;
    await killStarted();
    await site?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  const query = { hosts: ["app.example.test"], browsers: ["chromium"] };

  it("finds v11 values and Chromium's item in the Secret Service, under its own schema", async () => {
    const prefixes = await withDatabaseCopy(join(home, ".config", "chromium", "Default", "Cookies"), async (copy) => {
      const db = await new BetterSqlite().open(copy);
      try {
        return db.all("SELECT DISTINCT CAST(substr(encrypted_value, 1, 3) AS TEXT) AS prefix FROM cookies").map((row) => row.prefix);
      } finally {
        db.close();
      }
    });
    expect(prefixes).toEqual(["v11"]);
    const { stdout } = await run("secret-tool", ["search", "--all", "application", "chromium"], { env: sessionEnv });
    expect(stdout).toMatch(/^label = Chromium Safe Storage$/m);
    expect(stdout).toMatch(/^secret = [A-Za-z0-9+/]{22}==$/m);
  });

  it("decrypts them with the password secret-tool reads, when a person is there to be asked", async () => {
    const safeStorage = spySafeStorage(new LibsecretSafeStorage(new NodeProcessRunner(), sessionEnv));
    const access = testAccess({ HOME: home, DBUS_SESSION_BUS_ADDRESS: bus }, { safeStorage, interactive: true });
    const { candidates } = await access.cookies.read(query, { interactive: true });
    const values = Object.fromEntries((candidates[0]?.cookies ?? []).map((c) => [c.name, c.value]));
    expect(values).toMatchObject({ session: "sess_value_123", domain_cookie: "dom_val", utf8_cookie: "caf%C3%A9" });
    // a second look in the same run asks nothing more
    await access.cookies.read({ ...query, hosts: ["auth.example.test"] }, { interactive: true });
    expect(safeStorage.calls).toEqual(["chromium"]);
  });

  it("asks nothing in a run nobody watches, or when browser secrets are off: the v11 cookies stay unread", async () => {
    for (const overrides of [{ interactive: false }, { interactive: true, browserSecretsAllowed: async () => false }]) {
      const safeStorage = spySafeStorage(new LibsecretSafeStorage(new NodeProcessRunner(), sessionEnv));
      const { candidates, notes } = await testAccess({ HOME: home }, { safeStorage, ...overrides }).cookies.read(query, {
        interactive: overrides.interactive,
      });
      expect(safeStorage.calls).toEqual([]);
      expect(candidates).toEqual([]);
      expect(notes[0]).toMatchObject({ outcome: "skipped", detail: expect.stringMatching(/could not be decrypted/) });
    }
  });

  it("cannot read Chromium's item with the keyring library, but round-trips its own cache entries there", async () => {
    const store = new KeyringSecretStore();
    expect(await store.get("Chromium Safe Storage", "chromium")).toBeNull();
    expect(await store.get("quotabar", "cookie:test")).toBeNull();
    await store.set("quotabar", "cookie:test", JSON.stringify({ header: "a=1" }));
    expect(await store.get("quotabar", "cookie:test")).toBe(JSON.stringify({ header: "a=1" }));
    const { stdout } = await run("secret-tool", ["search", "--all", "service", "quotabar"], { env: sessionEnv });
    expect(stdout).toContain('secret = {"header":"a=1"}');
    expect(await store.delete("quotabar", "cookie:test")).toBe(true);
    expect(await store.get("quotabar", "cookie:test")).toBeNull();
    expect(await store.delete("quotabar", "cookie:test")).toBe(false);
  });
});
