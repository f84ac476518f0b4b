import { createRequire } from "node:module";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { geckoProfiles } from "../../adapters/browser/gecko/gecko-profiles.js";
import type { CookieCandidate } from "../../ports/browser-credentials.js";
import { startCookieSite, type CookieSite } from "./cookie-site.js";
import { testAccess } from "./doubles.js";
import { eventually, killStarted, requireBinaries, startDetached } from "./real-browsers.js";

/**
 * Real Firefox ESR (headless) starts once on an empty HOME: it creates its profile the way a fresh
 * install does (profiles.ini, installs.ini, *.default-esr under ~/.mozilla/firefox up to Firefox 146,
 * under ~/.config/mozilla/firefox from 147: the version Debian ships decides), visits
 * the loopback site and keeps running, its cookies.sqlite locked and its fresh rows in the WAL.
 */
const bins = requireBinaries("firefox-esr");

let site: CookieSite;
let home: string;
let visitedAt: number;
let live: { candidates: CookieCandidate[] };
const HOST = "app.example.localhost";
const query = { hosts: [HOST], browsers: ["chrome", "firefox"] };

/** Where this Firefox created its profile: the legacy root or the XDG one, by version. */
const profileRoot = () =>
  [join(home, ".mozilla", "firefox"), join(home, ".config", "mozilla", "firefox")].find((root) =>
    existsSync(join(root, "profiles.ini")),
  ) as string;

const byName = (candidate: CookieCandidate | undefined) => Object.fromEntries((candidate?.cookies ?? []).map((c) => [c.name, c]));

describe.skipIf(!bins)("Gecko cookie store, real Firefox ESR", () => {
  beforeAll(async () => {
    site = await startCookieSite();
    home = mkdtempSync(join(tmpdir(), "quotabar-firefox-"));
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, MOZ_HEADLESS: "1" };
    delete env.XDG_CONFIG_HOME;
    visitedAt = Date.now();
    startDetached("firefox-esr", ["--headless", "--no-remote", site.url(HOST)], env);
    // read while it runs: every fresh row is in cookies.sqlite-wal at first
    live = await eventually(async () => {
      const read = await testAccess({ HOME: home }).cookies.read(query, { interactive: false });
      return byName(read.candidates[0]).session ? read : null;
    }, 60_000);
  });

  afterAll(async () => {
    await killStarted();
    await site?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("resolves the install's default profile from installs.ini / profiles.ini", async () => {
    const root = profileRoot();
    const profiles = await geckoProfiles(root);
    expect(profiles[0]?.dir).toMatch(/\.default-esr$/);
    expect(live.candidates.map((c) => c.profile)).toEqual(["default-esr"]);
  });

  it("reads a live, locked database through a copy that includes the WAL", async () => {
    const root = profileRoot();
    const profile = readdirSync(root).find((n) => n.endsWith(".default-esr")) as string;
    const file = join(root, profile, "cookies.sqlite");
    // Firefox holds it exclusively: a direct open cannot read it
    const Database = createRequire(import.meta.url)("better-sqlite3") as new (
      path: string,
      options: object,
    ) => { prepare(sql: string): { get(): unknown }; close(): void };
    expect(() => {
      const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 0 });
      try {
        db.prepare("SELECT count(*) FROM moz_cookies").get();
      } finally {
        db.close();
      }
    }).toThrow(/SQLITE_BUSY|locked/);
    const cookies = byName(live.candidates[0]);
    expect(cookies.session).toMatchObject({ value: "sess_value_123", domain: HOST, hostOnly: true, path: "/" });
    expect(cookies.domain_cookie).toMatchObject({ value: "dom_val", domain: ".example.localhost", hostOnly: false });
    expect(cookies.utf8_cookie?.value).toBe("caf%C3%A9");
  });

  it("reads expiry in milliseconds (user_version 17): Max-Age=86400 lands a day after the visit", () => {
    const session = byName(live.candidates[0]).session;
    const at = Date.parse(session?.expiresAt ?? "") / 1000;
    expect(at).toBeGreaterThan(visitedAt / 1000 + 86_400 - 5);
    expect(at).toBeLessThan(visitedAt / 1000 + 86_400 + 120);
  });

  it("drops expired cookies and keeps only what the host would be sent", async () => {
    const later = new Date(Date.now() + 2 * 60 * 60 * 1000);
    const { candidates } = await testAccess({ HOME: home }, { clock: { now: () => later } }).cookies.read(query, { interactive: false });
    expect(Object.keys(byName(candidates[0]))).toEqual(["session"]);
    const sibling = await testAccess({ HOME: home }).cookies.read({ ...query, hosts: ["auth.example.localhost"] }, { interactive: false });
    expect(Object.keys(byName(sibling.candidates[0]))).toEqual(["domain_cookie"]);
  });

  it("reads both Linux roots, the one whose profiles.ini Firefox wrote last first", async () => {
    const fixture = mkdtempSync(join(tmpdir(), "quotabar-firefox-roots-"));
    try {
      const source = join(profileRoot(), readdirSync(profileRoot()).find((n) => n.endsWith(".default-esr")) as string);
      const roots = { legacy: join(fixture, ".mozilla", "firefox"), xdg: join(fixture, ".config", "mozilla", "firefox") };
      for (const [name, root] of Object.entries(roots)) {
        mkdirSync(join(root, `${name}.default-release`), { recursive: true });
        for (const file of readdirSync(source).filter((f) => f.startsWith("cookies.sqlite")))
          cpSync(join(source, file), join(root, `${name}.default-release`, file));
        writeFileSync(join(root, "profiles.ini"), `[Profile0]\nName=${name}\nIsRelative=1\nPath=${name}.default-release\nDefault=1\n`);
      }
      const profilesOf = async () =>
        (await testAccess({ HOME: fixture }).cookies.read(query, { interactive: false })).candidates.map((c) => c.profile);
      utimesSync(join(roots.legacy, "profiles.ini"), new Date(), new Date(Date.now() - 86_400_000));
      expect(await profilesOf()).toEqual(["xdg", "legacy"]);
      utimesSync(join(roots.xdg, "profiles.ini"), new Date(), new Date(Date.now() - 2 * 86_400_000));
      expect(await profilesOf()).toEqual(["legacy", "xdg"]);
    } finally {
      rmSync(fixture, { recursive: true, force: true });
    }
  });

  it("prefers the legacy ~/.mozilla root and its install default, and says when a database is corrupt", async () => {
    const fixture = mkdtempSync(join(tmpdir(), "quotabar-firefox-legacy-"));
    try {
      const source = join(profileRoot(), readdirSync(profileRoot()).find((n) => n.endsWith(".default-esr")) as string);
      const legacy = join(fixture, ".mozilla", "firefox");
      for (const name of ["old.default", "main.default-release"]) {
        mkdirSync(join(legacy, name), { recursive: true });
        for (const file of readdirSync(source).filter((f) => f.startsWith("cookies.sqlite")))
          cpSync(join(source, file), join(legacy, name, file));
      }
      writeFileSync(
        join(legacy, "profiles.ini"),
        "[Profile1]\nName=old\nIsRelative=1\nPath=old.default\nDefault=1\n\n[Profile0]\nName=main\nIsRelative=1\nPath=main.default-release\n\n[General]\nStartWithLastProfile=1\nVersion=2\n",
      );
      writeFileSync(join(legacy, "installs.ini"), "[4F96D1932A9F858E]\nDefault=main.default-release\nLocked=1\n");
      const { candidates } = await testAccess({ HOME: fixture }).cookies.read(query, { interactive: false });
      expect(candidates.map((c) => c.profile)).toEqual(["main", "old"]);

      writeFileSync(join(legacy, "old.default", "cookies.sqlite"), "garbage".repeat(1000));
      const { notes } = await testAccess({ HOME: fixture }).cookies.read(query, { interactive: false });
      expect(notes.find((n) => n.profile === "old")).toMatchObject({
        outcome: "error",
        detail: expect.stringContaining("cookies.sqlite could not be read"),
      });
      expect(notes.find((n) => n.profile === "main")?.outcome).toBe("found");
    } finally {
      rmSync(fixture, { recursive: true, force: true });
    }
  });
});
