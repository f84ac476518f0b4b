import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decryptCookie, EMPTY_PASSWORD_KEY, PEANUTS_KEY } from "../../adapters/browser/chromium/chromium-crypto.js";
import { withDatabaseCopy } from "../../adapters/browser/database-copy.js";
import { COOLDOWN_MS } from "../../adapters/browser/secret-gate.js";
import { MemorySecretStore } from "../../adapters/secrets/memory-secret-store.js";
import { BetterSqlite } from "../../adapters/sqlite/better-sqlite3.js";
import { NodeSqlite } from "../../adapters/sqlite/node-sqlite.js";
import type { BrowserCookie, CookieCandidate } from "../../ports/browser-credentials.js";
import type { CredentialContext } from "../../ports/fetch-context.js";
import { explainCookies } from "../../adapters/browser/cookie-explanation.js";
import { cookieExplanationText } from "../../oclif-cli/commands/cookies.js";
import { style } from "../../oclif-cli/render/style.js";
import type { ProviderDescriptor } from "../../domain/descriptor.js";
import type { ProviderModule } from "../../ports/provider-module.js";
import { browserCookieHeader, firstFound, manualCookieHeader } from "../../providers/kit/index.js";
import { DESCRIPTORS } from "../../providers/registry.js";
import { startCookieSite, type CookieSite } from "./cookie-site.js";
import { memoryTextStore, spySafeStorage, testAccess } from "./doubles.js";
import { chromiumVisit, requireBinaries } from "./real-browsers.js";

/**
 * Real Chromium (headless, basic store: `v10` with the "peanuts" key) writes two profiles' cookie
 * databases under a fixture HOME; the readers then read them as they would a user's.
 */
const bins = requireBinaries("chromium");
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
const NODE_SQLITE = major > 22 || (major === 22 && minor >= 5);
if (!NODE_SQLITE) console.warn(`node:sqlite needs Node 22.5 (this is ${process.version}): its check runs under Node 22 in .ci/run`);

let site: CookieSite;
let home: string;
let userData: string;
let privateTmp: string;
let launchedAt: number;

const hash = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const byName = (candidate: CookieCandidate | undefined) => Object.fromEntries((candidate?.cookies ?? []).map((c) => [c.name, c]));
const seconds = (iso: string | null) => (iso ? Date.parse(iso) / 1000 : Number.NaN);

describe.skipIf(!bins)("Chromium cookie store, real Chromium (basic store, v10)", () => {
  beforeAll(async () => {
    // the readers copy databases into os.tmpdir(): a private one shows what they leave behind
    privateTmp = mkdtempSync(join(tmpdir(), "quotabar-tmp-"));
    site = await startCookieSite();
    home = mkdtempSync(join(tmpdir(), "quotabar-chromium-"));
    userData = join(home, ".config", "chromium");
    launchedAt = Date.now();
    await chromiumVisit(userData, site.url("app.example.test"));
    await chromiumVisit(userData, site.url("auth.example.test"), { profile: "Profile 1" });
    process.env.TMPDIR = privateTmp;
  });

  afterAll(async () => {
    delete process.env.TMPDIR;
    await site?.close();
    for (const dir of [home, privateTmp]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("finds the database Chromium 156 writes: schema 24, v10 values, the peanuts key, SHA-256(host_key) in front", async () => {
    const rows = await withDatabaseCopy(join(userData, "Default", "Cookies"), async (copy) => {
      const db = await new BetterSqlite().open(copy);
      try {
        expect(db.all("SELECT value FROM meta WHERE key = 'version'")).toEqual([{ value: "24" }]);
        return db.all("SELECT host_key, value, encrypted_value FROM cookies") as {
          host_key: string;
          value: string;
          encrypted_value: Buffer;
        }[];
      } finally {
        db.close();
      }
    });
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(PEANUTS_KEY.toString("hex")).toBe("fd621fe5a2b402539dfa147ca9272778");
    expect(EMPTY_PASSWORD_KEY.toString("hex")).toBe("d0d0ec9c7d77d43ac54187fa4818d17f");
    for (const row of rows) {
      expect(row.value).toBe("");
      expect(row.encrypted_value.subarray(0, 3).toString()).toBe("v10");
      // the hash check rejects a wrong key that happens to pass the padding
      expect(decryptCookie(row.encrypted_value, row.host_key, 24, [EMPTY_PASSWORD_KEY])).toBeNull();
      expect(decryptCookie(row.encrypted_value, row.host_key, 24, [PEANUTS_KEY])).not.toBeNull();
    }
  });

  it("reads every profile (names from Local State, last used first) and decrypts without asking any secret store", async () => {
    const safeStorage = spySafeStorage({ kind: "found", password: "never used" });
    const access = testAccess({ HOME: home }, { safeStorage, interactive: true });
    const { candidates, notes } = await access.cookies.read(
      { hosts: ["app.example.test"], browsers: ["chrome", "chromium"] },
      { interactive: true },
    );
    expect(safeStorage.calls).toEqual([]);
    expect(notes[0]).toMatchObject({ browser: "chrome", outcome: "not-installed" });
    expect(candidates.map((c) => c.profile)).toEqual(["Person 1", "Your Chromium"]);
    const app = byName(candidates.find((c) => c.profile === "Your Chromium"));
    expect(app.session).toMatchObject({ value: "sess_value_123", domain: "app.example.test", hostOnly: true });
    expect(app.domain_cookie).toMatchObject({ value: "dom_val", domain: ".example.test", hostOnly: false });
    expect(app.utf8_cookie?.value).toBe("caf%C3%A9");
    // a session cookie has no expiry (Chromium keeps or drops it on exit, depending on the build)
    if (app.session_only) expect(app.session_only.expiresAt).toBeNull();
  });

  it("converts expiry from microseconds since 1601: Max-Age=86400 lands a day after the visit", async () => {
    const { candidates } = await testAccess({ HOME: home }).cookies.read(
      { hosts: ["app.example.test"], browsers: ["chromium"] },
      { interactive: false },
    );
    const session = byName(candidates.find((c) => c.profile === "Your Chromium")).session as BrowserCookie;
    const expected = launchedAt / 1000 + 86_400;
    expect(seconds(session.expiresAt)).toBeGreaterThan(expected - 5);
    expect(seconds(session.expiresAt)).toBeLessThan(expected + 120);
  });

  it("matches domains as RFC 6265 says: a sibling host gets the domain cookie, never another host's host-only one", async () => {
    const { candidates } = await testAccess({ HOME: home }).cookies.read(
      { hosts: ["auth.example.test"], browsers: ["chromium"] },
      { interactive: false },
    );
    const fromApp = byName(candidates.find((c) => c.profile === "Your Chromium"));
    expect(Object.keys(fromApp)).toEqual(["domain_cookie"]);
    const fromAuth = byName(candidates.find((c) => c.profile === "Person 1"));
    expect(fromAuth.session?.domain).toBe("auth.example.test");
    const none = await testAccess({ HOME: home }).cookies.read(
      { hosts: ["example.test.evil.com", "notexample.test"], browsers: ["chromium"] },
      { interactive: false },
    );
    expect(none.candidates).toEqual([]);
  });

  it("drops expired cookies: two hours on, only the day-long session cookie (and the no-expiry one) are left", async () => {
    const later = new Date(Date.now() + 2 * 60 * 60 * 1000);
    const access = testAccess({ HOME: home }, { clock: { now: () => later } });
    const { candidates } = await access.cookies.read({ hosts: ["app.example.test"], browsers: ["chromium"] }, { interactive: false });
    const names = Object.keys(byName(candidates.find((c) => c.profile === "Your Chromium"))).filter((n) => n !== "session_only");
    expect(names).toEqual(["session"]);
  });

  it("follows CHROME_CONFIG_HOME, then XDG_CONFIG_HOME, before ~/.config", async () => {
    const elsewhere = join(home, "nowhere");
    for (const env of [
      { HOME: elsewhere, CHROME_CONFIG_HOME: join(home, ".config") },
      { HOME: elsewhere, XDG_CONFIG_HOME: join(home, ".config") },
    ]) {
      const { candidates } = await testAccess(env).cookies.read(
        { hosts: ["app.example.test"], browsers: ["chromium"] },
        { interactive: false },
      );
      expect(candidates.length).toBe(2);
    }
    const { notes } = await testAccess({ HOME: elsewhere }).cookies.read(
      { hosts: ["app.example.test"], browsers: ["chromium"] },
      { interactive: false },
    );
    expect(notes).toEqual([{ browser: "chromium", outcome: "not-installed", detail: "Chromium has no profile data here" }]);
  });

  it("never writes to the browser's files and leaves no copy behind", async () => {
    const files = ["Default/Cookies", "Default/Cookies-journal", "Profile 1/Cookies"].map((f) => join(userData, f)).filter(existsSync);
    const before = files.map((f) => [hash(f), statSync(f).mtimeMs]);
    await testAccess({ HOME: home }).cookies.read({ hosts: ["app.example.test"], browsers: ["chromium"] }, { interactive: false });
    expect(files.map((f) => [hash(f), statSync(f).mtimeMs])).toEqual(before);
    expect(readdirSync(privateTmp)).toEqual([]);
  });

  it("says what went wrong with a corrupt or missing database, and goes on with the next profile", async () => {
    const broken = mkdtempSync(join(tmpdir(), "quotabar-broken-"));
    try {
      const data = join(broken, ".config", "chromium");
      cpSync(userData, data, { recursive: true });
      writeFileSync(join(data, "Profile 1", "Cookies"), "this is not a database".repeat(300));
      rmSync(join(data, "Profile 1", "Cookies-journal"), { force: true });
      const { candidates, notes } = await testAccess({ HOME: broken }).cookies.read(
        { hosts: ["app.example.test"], browsers: ["chromium"] },
        { interactive: false },
      );
      expect(notes.find((n) => n.profile === "Person 1")).toMatchObject({
        outcome: "error",
        detail: expect.stringMatching(/^Cookies could not be read: .*not a database/),
      });
      expect(candidates.map((c) => c.profile)).toEqual(["Your Chromium"]);

      // an SQLite database that is not Chromium's (an empty file is an empty database)
      writeFileSync(join(data, "Profile 1", "Cookies"), "");
      const wrong = await testAccess({ HOME: broken }).cookies.read(
        { hosts: ["app.example.test"], browsers: ["chromium"] },
        { interactive: false },
      );
      expect(wrong.notes.find((n) => n.profile === "Person 1")?.detail).toContain("not a Chromium cookie database");

      // no database at all: the profile is not a candidate, and the browser counts as not used
      for (const profile of ["Default", "Profile 1"]) rmSync(join(data, profile, "Cookies"), { force: true });
      const missing = await testAccess({ HOME: broken }).cookies.read(
        { hosts: ["app.example.test"], browsers: ["chromium"] },
        { interactive: false },
      );
      expect(missing.notes).toEqual([
        { browser: "chromium", outcome: "no-profile", detail: "Chromium has no profile with a cookie store" },
      ]);
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });

  describe("macOS layout (the Keychain key), the same databases under ~/Library/Application Support", () => {
    let mac: string;
    beforeAll(() => {
      mac = mkdtempSync(join(tmpdir(), "quotabar-mac-"));
      const root = join(mac, "Library", "Application Support", "Chromium");
      mkdirSync(root, { recursive: true });
      cpSync(userData, root, { recursive: true });
    });
    afterAll(() => rmSync(mac, { recursive: true, force: true }));

    const query = { hosts: ["app.example.test"], browsers: ["chromium"] };

    it("never asks the secret store in a run nobody watches", async () => {
      const safeStorage = spySafeStorage({ kind: "found", password: "x" });
      const { candidates, notes } = await testAccess({ HOME: mac }, { platform: "darwin", safeStorage, interactive: false }).cookies.read(
        query,
        { interactive: false },
      );
      expect(safeStorage.calls).toEqual([]);
      expect(candidates).toEqual([]);
      expect(notes[0]?.detail).toMatch(
        /could not be decrypted \(its key is in the OS secret store, which only a run someone watches may ask\)/,
      );

      // a run someone watches, but a lookup nobody waits on: still no prompt, and the run may ask later
      const watched = spySafeStorage({ kind: "found", password: "x" });
      const access = testAccess({ HOME: mac }, { platform: "darwin", safeStorage: watched, interactive: true });
      await access.cookies.read(query, { interactive: false });
      expect(watched.calls).toEqual([]);
      await access.cookies.read(query, { interactive: true });
      expect(watched.calls).toEqual(["chromium"]);
    });

    it("asks at most once per browser per run, and never when browser secrets are switched off", async () => {
      const once = spySafeStorage({ kind: "found", password: "wrong password" });
      const access = testAccess({ HOME: mac }, { platform: "darwin", safeStorage: once, interactive: true });
      await access.cookies.read(query, { interactive: true });
      await access.cookies.read({ ...query, hosts: ["auth.example.test"] }, { interactive: true });
      expect(once.calls).toEqual(["chromium"]);

      const off = spySafeStorage({ kind: "found", password: "x" });
      const { notes } = await testAccess(
        { HOME: mac },
        { platform: "darwin", safeStorage: off, interactive: true, browserSecretsAllowed: async () => false },
      ).cookies.read(query, { interactive: true });
      expect(off.calls).toEqual([]);
      expect(notes[0]?.detail).toContain("reading browser secrets is switched off");
    });

    it("cools down for six hours after a denial, across runs", async () => {
      const store = memoryTextStore();
      let now = new Date("2026-11-20T10:00:00Z");
      const clock = { now: () => now };
      const denied = spySafeStorage({ kind: "denied", detail: "Keychain access was denied" });
      const first = await testAccess(
        { HOME: mac },
        { platform: "darwin", safeStorage: denied, interactive: true, store, clock },
      ).cookies.read(query, { interactive: true });
      expect(denied.calls).toEqual(["chromium"]);
      expect(first.notes[0]?.detail).toContain("Keychain access was denied; not asking again until 2026-11-20T16:00:00.000Z");

      // the next run (a new reader) does not ask again
      now = new Date(now.getTime() + COOLDOWN_MS - 60_000);
      const second = await testAccess(
        { HOME: mac },
        { platform: "darwin", safeStorage: denied, interactive: true, store, clock },
      ).cookies.read(query, { interactive: true });
      expect(denied.calls).toEqual(["chromium"]);
      expect(second.notes[0]?.detail).toContain("access was denied; not asking again until 2026-11-20T16:00:00.000Z");

      // after the cooldown it asks once more
      now = new Date(now.getTime() + 120_000);
      await testAccess({ HOME: mac }, { platform: "darwin", safeStorage: denied, interactive: true, store, clock }).cookies.read(query, {
        interactive: true,
      });
      expect(denied.calls).toEqual(["chromium", "chromium"]);
    });
  });

  it("gives the kit a header, caches it in the secret store, and reuses it without reading the browsers again", async () => {
    const secrets = new MemorySecretStore();
    const access = testAccess({ HOME: home }, { secrets });
    let reads = 0;
    const counted = {
      ...access,
      cookies: {
        read: (q: Parameters<typeof access.cookies.read>[0], o: Parameters<typeof access.cookies.read>[1]) => (
          reads++,
          access.cookies.read(q, o)
        ),
      },
    };
    const context = (entry: CredentialContext["entry"]): CredentialContext => ({
      env: {},
      entry,
      now: () => new Date(),
      sourceMode: "auto",
      processes: access.options.processes,
      browsers: counted,
    });
    const source = browserCookieHeader({
      hosts: ["app.example.test"],
      browsers: ["chrome", "chromium"],
      session: { isSession: (n) => n === "session", sendOnlySession: false },
    });
    const header = await source.resolve(context({ id: "demo" }));
    expect(header).toMatch(/^domain_cookie=dom_val; session=sess_value_123; (session_only=no_expiry; )?utf8_cookie=caf%C3%A9$/);
    expect(JSON.parse((await secrets.get("quotabar", "cookie:demo")) as string)).toMatchObject({
      header,
      source: "chromium/Your Chromium",
    });
    expect(await source.resolve(context({ id: "demo" }))).toBe(header);
    expect(reads).toBe(1);
    expect(await source.resolve(context({ id: "other", cookieSource: "manual" }))).toBeNull();
    expect(await source.resolve(context({ id: "other", browsers: ["firefox"] }))).toBeNull();
    expect(reads).toBe(2);
  });

  it("explains where a provider's cookies come from, naming cookies but never printing a value", async () => {
    const safeStorage = spySafeStorage({ kind: "found", password: "x" });
    const access = testAccess({ HOME: home }, { safeStorage, interactive: true });
    const descriptor = { ...(DESCRIPTORS.find((d) => d.id === "amp") as ProviderDescriptor), credentialEnv: ["AMP_COOKIE"] };
    const module: ProviderModule = {
      descriptor,
      strategies: [
        {
          source: "web",
          credentials: firstFound([
            manualCookieHeader(["AMP_COOKIE"]),
            browserCookieHeader({
              hosts: ["app.example.test"],
              browsers: ["chrome", "chromium", "firefox"],
              session: { isSession: (name) => name === "session", sendOnlySession: false },
            }),
          ]),
          fetch: async () => 0,
          toSnapshot: () => ({ plan: null, primary: null, secondary: null, tertiary: null, details: [] }),
          missingCredential: () => new Error("none") as never,
        },
      ],
    };
    await access.secrets.set(
      "quotabar",
      "cookie:amp",
      JSON.stringify({ header: "session=cached-value-xyz", storedAt: "2026-11-01T00:00:00Z", source: "chromium/Default" }),
    );
    const explained = await explainCookies(
      module,
      { id: "amp", cookieHeader: "session=pasted-value-xyz" },
      access,
      { AMP_COOKIE: "session=env-value-xyz" },
      () => new Date(),
    );
    expect(explained.queries).toEqual([{ hosts: ["app.example.test"], browsers: ["chrome", "chromium", "firefox"] }]);
    expect(explained.chosen).toMatchObject({ browser: "chromium", profile: "Your Chromium", outcome: "chosen" });
    expect(explained.chosen?.cookieNames).toEqual(expect.arrayContaining(["session", "domain_cookie", "utf8_cookie"]));
    expect(explained.notes.map((n) => `${n.browser}:${n.profile ?? "-"}:${n.outcome}`)).toEqual([
      "config:-:found",
      "environment:-:found",
      "cache:-:skipped",
      "chrome:-:not-installed",
      "chromium:Person 1:found",
      "chromium:Your Chromium:found",
      "firefox:-:not-installed",
      "chromium:Person 1:skipped",
      "chromium:Your Chromium:chosen",
    ]);
    const lines = cookieExplanationText(explained, style(false));
    expect(lines[0]).toBe("Amp: cookies for app.example.test; browsers in order: chrome, chromium, firefox");
    expect(lines).toContain("  chrome                   not-installed Chrome has no profile data here");
    expect(lines).toContain("  chromium / Person 1      skipped       none of its cookies is a session cookie [domain_cookie]");
    expect(lines.at(-1)).toMatch(/^Chosen: chromium \/ Your Chromium \(/);
    const text = JSON.stringify(explained) + lines.join("\n");
    for (const secret of ["sess_value_123", "dom_val", "caf%C3%A9", "cached-value-xyz", "pasted-value-xyz", "env-value-xyz"])
      expect(text).not.toContain(secret);
    expect(safeStorage.calls).toEqual([]);
    // explaining writes nothing: the cached header is still the old one
    expect(await access.secrets.get("quotabar", "cookie:amp")).toContain("cached-value-xyz");
  });

  it("composes Local Storage per profile through the reader it is given, and says when there is none", async () => {
    const asked: string[] = [];
    const access = testAccess(
      { HOME: home },
      {
        chromiumLocalStorage: async (profileDir, query) => {
          asked.push(profileDir.slice(userData.length + 1));
          return profileDir.endsWith("Default") ? [{ origin: query.origins[0] as string, key: "token", value: "t" }] : [];
        },
      },
    );
    const { entries, notes } = await access.localStorage.read(
      { origins: ["https://app.example.test"], browsers: ["chromium", "firefox"] },
      { interactive: false },
    );
    expect(asked.sort()).toEqual(["Default", "Profile 1"]);
    expect(entries).toEqual([
      { browser: "chromium", profile: "Your Chromium", origin: "https://app.example.test", key: "token", value: "t" },
    ]);
    expect(notes.map((n) => `${n.browser}:${n.profile ?? "-"}:${n.outcome}`)).toEqual([
      "chromium:Person 1:nothing",
      "chromium:Your Chromium:found",
      "firefox:-:skipped",
    ]);
    const without = await testAccess({ HOME: home }).localStorage.read(
      { origins: ["https://app.example.test"], browsers: ["chromium"] },
      { interactive: false },
    );
    expect(without.notes).toEqual([
      { browser: "chromium", outcome: "skipped", detail: "reading Chromium Local Storage is not available yet" },
    ]);
  });

  // Raycast's engine: node:sqlite exists from Node 22.5; .ci/run runs this test under Node 22 too
  it.skipIf(!NODE_SQLITE)("reads the same databases through node:sqlite, Raycast's engine (Node 22)", async () => {
    const { candidates } = await testAccess({ HOME: home }, { sqlite: new NodeSqlite() }).cookies.read(
      { hosts: ["app.example.test"], browsers: ["chromium"] },
      { interactive: false },
    );
    expect(byName(candidates.find((c) => c.profile === "Your Chromium")).session?.value).toBe("sess_value_123");
  });
});
