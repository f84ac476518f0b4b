import { catalogOf } from "../../domain/provider-catalog.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { secretsByLabel } from "../../adapters/browser/chromium/safe-storage.js";
import { fromChromiumTime } from "../../adapters/browser/chromium/chromium-cookie-db.js";
import { decryptCookie, deriveKey, PEANUTS_KEY } from "../../adapters/browser/chromium/chromium-crypto.js";
import { fresher, keptFor, sentTo, storedDomainsFor } from "../../adapters/browser/cookie-jar.js";
import { fromGeckoExpiry } from "../../adapters/browser/gecko/gecko-cookie-db.js";
import { parseIni } from "../../adapters/browser/gecko/gecko-profiles.js";
import { SecretGate } from "../../adapters/browser/secret-gate.js";
import { FileTextStore } from "../../adapters/cache/file-text-store.js";
import { StoredSnapshotCache } from "../../adapters/cache/stored-snapshot-cache.js";
import { NodeProcessRunner } from "../../adapters/process/node-process-runner.js";
import { MemorySecretStore } from "../../adapters/secrets/memory-secret-store.js";
import { QuotabarError } from "../../domain/errors.js";
import { meter } from "../../domain/meter.js";
import { UsageService } from "../../domain/usage-service.js";
import { writeCliRemedies } from "../../library/remedy-text.js";
import type { BrowserAccess, BrowserCookie, CookieCandidate, CookieQuery, LookupNote } from "../../ports/browser-credentials.js";
import type { CredentialContext } from "../../ports/fetch-context.js";
import type { FetchStrategy } from "../../ports/fetch-strategy.js";
import type { ProviderModule } from "../../ports/provider-module.js";
import { browserCookieHeader, cookieHeaderOf, firstFound, manualCookieHeader, withFreshCookieRetry } from "../../providers/kit/index.js";
import { DESCRIPTORS } from "../../providers/registry.js";
import { createCipheriv, createHash } from "node:crypto";
import { memoryTextStore } from "./doubles.js";
import { StoredKeptValues } from "../../adapters/cache/stored-kept-values.js";

const now = new Date("2026-11-20T10:00:00.000Z");
const cookie = (fields: Partial<BrowserCookie>): BrowserCookie => ({
  name: "sid",
  value: "v",
  domain: ".example.com",
  hostOnly: false,
  path: "/",
  expiresAt: null,
  secure: true,
  ...fields,
});

describe("cookie jar (RFC 6265 matching)", () => {
  it("sends a host-only cookie to its host only, a domain cookie to the domain and its subdomains on a label boundary", () => {
    const hostOnly = cookie({ domain: "app.example.com", hostOnly: true });
    const domain = cookie({ domain: ".example.com" });
    expect(["app.example.com", "APP.example.com"].map((h) => sentTo(hostOnly, h))).toEqual([true, true]);
    expect(["example.com", "x.app.example.com", "auth.example.com"].map((h) => sentTo(hostOnly, h))).toEqual([false, false, false]);
    expect(["example.com", "app.example.com", "a.b.example.com"].map((h) => sentTo(domain, h))).toEqual([true, true, true]);
    expect(["badexample.com", "example.com.evil.net", "com"].map((h) => sentTo(domain, h))).toEqual([false, false, false]);
  });

  it("lists the stored domains a host can receive, for the database filter", () => {
    expect(storedDomainsFor("www.kimi.com")).toEqual(["www.kimi.com", ".www.kimi.com", ".kimi.com"]);
    expect(storedDomainsFor("ollama.com")).toEqual(["ollama.com", ".ollama.com"]);
  });

  it("keeps the fresher of two copies, drops expired ones and unwanted names", () => {
    const old = cookie({ value: "old", updatedAt: "2026-11-01T00:00:00Z", expiresAt: "2027-01-01T00:00:00Z" });
    const recent = cookie({ value: "new", updatedAt: "2026-11-19T00:00:00Z", expiresAt: "2026-12-01T00:00:00Z" });
    expect(fresher(old, recent).value).toBe("new");
    expect(fresher(cookie({ value: "session" }), cookie({ value: "lasting", expiresAt: "2027-01-01T00:00:00Z" })).value).toBe("lasting");
    const kept = keptFor(
      [
        old,
        recent,
        cookie({ name: "gone", expiresAt: "2026-11-20T09:59:59Z" }),
        cookie({ name: "other" }),
        cookie({ name: "sid", path: "/api", value: "api" }),
      ],
      { hosts: ["app.example.com"], names: ["sid", "gone"] },
      now,
    );
    expect(kept.map((c) => `${c.name}${c.path}=${c.value}`)).toEqual(["sid/=new", "sid/api=api"]);
  });

  it("builds a header with longer paths first and leaves out cookies that would break it", () => {
    expect(
      cookieHeaderOf([
        cookie({ name: "a", value: "1" }),
        cookie({ name: "b", value: "2", path: "/deep" }),
        cookie({ name: "c", value: "x\r\nInjected: 1" }),
      ]),
    ).toBe("b=2; a=1");
    expect(cookieHeaderOf([cookie({ name: "bad;name" })])).toBeNull();
  });
});

describe("stored formats", () => {
  it("converts Chromium's microseconds since 1601 and Firefox's seconds or milliseconds", () => {
    expect(fromChromiumTime(13_439_925_588_229_293n)).toBe("2026-11-23T16:39:48.229Z");
    expect(fromChromiumTime(0n)).toBeNull();
    expect(fromGeckoExpiry(1_795_449_007_582, 17)).toBe("2026-11-23T15:50:07.582Z");
    expect(fromGeckoExpiry(1_795_449_007, 15)).toBe("2026-11-23T15:50:07.000Z");
    // an old schema holding milliseconds anyway: the second guard
    expect(fromGeckoExpiry(1_795_449_007_582, 15)).toBe("2026-11-23T15:50:07.582Z");
    expect(fromGeckoExpiry(0, 17)).toBeNull();
  });

  it("decrypts v10 with the hash prefix from version 24, and legacy values by UTF-8 alone", () => {
    const encrypt = (key: Buffer, plain: Buffer) => {
      const cipher = createCipheriv("aes-128-cbc", key, Buffer.alloc(16, 0x20));
      return Buffer.concat([Buffer.from("v10"), cipher.update(plain), cipher.final()]);
    };
    const digest = createHash("sha256").update(".example.com").digest();
    const v24 = encrypt(PEANUTS_KEY, Buffer.concat([digest, Buffer.from("secret-value")]));
    expect(decryptCookie(v24, ".example.com", 24, [deriveKey("other", 1), PEANUTS_KEY])).toBe("secret-value");
    expect(decryptCookie(v24, ".other.com", 24, [PEANUTS_KEY])).toBeNull();
    const mac = deriveKey("mac-keychain-password", 1003);
    expect(decryptCookie(encrypt(mac, Buffer.from("plain")), "h", 23, [PEANUTS_KEY, mac])).toBe("plain");
    expect(decryptCookie(Buffer.from("v10short"), "h", 24, [PEANUTS_KEY])).toBeNull();
  });

  it("parses profiles.ini and secret-tool search output", () => {
    const ini = parseIni("; comment\n[Install4F96]\nDefault=abc.default-release\n\n[Profile0]\nName=x\nPath=abc.default-release\n");
    expect(ini.get("Install4F96")?.get("Default")).toBe("abc.default-release");
    const listing =
      "[/1]\nlabel = Chromium Safe Storage\nsecret = c2VjcmV0c2VjcmV0c2VjcmV0\ncreated = 2026\n[/2]\nlabel = Brave Safe Storage\nsecret = YnJhdmU=\n";
    expect(Object.fromEntries(secretsByLabel(listing))).toEqual({
      "Chromium Safe Storage": "c2VjcmV0c2VjcmV0c2VjcmV0",
      "Brave Safe Storage": "YnJhdmU=",
    });
  });
});

describe("the secret gate", () => {
  it("asks once per browser, remembers a denial for six hours, and never asks when nobody watches", async () => {
    const store = memoryTextStore();
    let clock = now;
    const asked: string[] = [];
    const gate = (interactive: boolean) => new SecretGate({ store, clock: { now: () => clock }, interactive, allowed: async () => true });
    const read = (answer: "found" | "denied") => async () => {
      asked.push(answer);
      return answer === "found" ? ({ kind: "found", password: "p" } as const) : ({ kind: "denied", detail: "refused" } as const);
    };
    expect(await gate(false).password("chrome", read("found"))).toEqual({ skipped: expect.stringContaining("only a run someone watches") });
    const run = gate(true);
    expect(await run.password("chrome", read("found"))).toEqual({ password: "p" });
    expect(await run.password("chrome", read("found"))).toEqual({ password: "p" });
    expect(await run.password("brave", read("denied"))).toEqual({ skipped: "refused; not asking again until 2026-11-20T16:00:00.000Z" });
    expect(asked).toEqual(["found", "denied"]);
    clock = new Date("2026-11-20T15:00:00Z");
    expect((await gate(true).password("brave", read("found"))) as object).toHaveProperty("skipped");
    clock = new Date("2026-11-20T16:00:01Z");
    expect(await gate(true).password("brave", read("found"))).toEqual({ password: "p" });
    expect(asked).toEqual(["found", "denied", "found"]);
  });
});

/** A BrowserAccess whose cookie reader answers from a list, counting reads. */
function fakeAccess(candidates: CookieCandidate[], extra: Partial<BrowserAccess> = {}) {
  const queries: CookieQuery[] = [];
  const access: BrowserAccess = {
    cookies: {
      read: async (query) => {
        queries.push(query);
        return {
          candidates: candidates.filter((c) => query.browsers.includes(c.browser)),
          notes: [{ browser: query.browsers[0] ?? "", outcome: "found", detail: "fake" }],
        };
      },
    },
    localStorage: { read: async () => ({ entries: [], notes: [] }) },
    secrets: new MemorySecretStore(),
    interactive: false,
    ...extra,
  };
  return { access, queries };
}

const contextOf = (access: BrowserAccess, entry: CredentialContext["entry"] = { id: "amp" }): CredentialContext => ({
  env: {},
  entry,
  now: () => now,
  sourceMode: "auto",
  processes: new NodeProcessRunner(""),
  browsers: access,
});

const SESSION = { isSession: (name: string) => name === "session", sendOnlySession: true };
const profiles: CookieCandidate[] = [
  { browser: "chrome", profile: "Default", cookies: [cookie({ name: "theme", value: "dark" })] },
  {
    browser: "chrome",
    profile: "Work",
    cookies: [cookie({ name: "theme", value: "light" }), cookie({ name: "session", value: "s-work" })],
  },
  { browser: "firefox", profile: "default-release", cookies: [cookie({ name: "session", value: "s-fox" })] },
];

describe("browserCookieHeader (the kit's credential source)", () => {
  const source = browserCookieHeader({ hosts: ["ampcode.com"], browsers: ["chrome", "firefox"], session: SESSION });

  it("takes the first profile with a session cookie, sends only it, and caches the header", async () => {
    const { access, queries } = fakeAccess(profiles);
    expect(await source.resolve(contextOf(access))).toBe("session=s-work");
    expect(queries).toEqual([{ hosts: ["ampcode.com"], browsers: ["chrome", "firefox"] }]);
    expect(JSON.parse((await access.secrets.get("quotabar", "cookie:amp")) as string)).toEqual({
      header: "session=s-work",
      storedAt: now.toISOString(),
      source: "chrome/Work",
    });
    expect(await source.resolve(contextOf(access))).toBe("session=s-work");
    expect(queries).toHaveLength(1);
  });

  it("honours cookieSource and the entry's browsers, and comes after a pasted header", async () => {
    const { access, queries } = fakeAccess(profiles);
    expect(await source.resolve(contextOf(access, { id: "amp", cookieSource: "off" }))).toBeNull();
    expect(await source.resolve(contextOf(access, { id: "amp", cookieSource: "manual" }))).toBeNull();
    expect(queries).toEqual([]);
    expect(await source.resolve(contextOf(access, { id: "amp", browsers: ["Firefox", 3, ""] }))).toBe("session=s-fox");
    const both = firstFound([manualCookieHeader([]), source]);
    expect(await both.resolve(contextOf(fakeAccess(profiles).access, { id: "amp", cookieHeader: "session=pasted" }))).toBe(
      "session=pasted",
    );
  });

  it("explains without reading or writing the cache", async () => {
    const notes: LookupNote[] = [];
    const { access } = fakeAccess(profiles, { explain: (note) => notes.push(note) });
    await access.secrets.set(
      "quotabar",
      "cookie:amp",
      JSON.stringify({ header: "session=from-cache-123", storedAt: "2026-11-19T00:00:00Z", source: "chrome/Default" }),
    );
    expect(await source.resolve(contextOf(access))).toBe("session=s-work");
    expect(notes.map((n) => [n.browser, n.profile ?? "", n.outcome, (n.cookieNames ?? []).join(",")])).toEqual([
      ["cache", "", "skipped", "session"],
      ["chrome", "", "found", ""],
      ["chrome", "Default", "skipped", "theme"],
      ["chrome", "Work", "chosen", "session"],
    ]);
    expect(JSON.stringify(notes)).not.toMatch(/s-work|from-cache-123/);
    expect(JSON.parse((await access.secrets.get("quotabar", "cookie:amp")) as string).header).toBe("session=from-cache-123");
  });
});

describe("withFreshCookieRetry", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /** A provider whose upstream accepts only `session=s-work`, refusing anything else with a 401. */
  function setup(candidates: CookieCandidate[]) {
    const { access, queries } = fakeAccess(candidates);
    const sent: string[] = [];
    const web: FetchStrategy<string, number> = {
      source: "web",
      credentials: browserCookieHeader({ hosts: ["ampcode.com"], browsers: ["chrome"], session: SESSION }),
      fetch: async (header) => {
        sent.push(header);
        if (header !== "session=s-work") throw new QuotabarError("unauthorized", "session expired");
        return 7;
      },
      toSnapshot: (used) => ({
        plan: null,
        primary: meter("Credits", { usedPercent: used }),
        secondary: null,
        tertiary: null,
        details: [],
      }),
      missingCredential: () => new QuotabarError("not_configured", "no cookie"),
    };
    const cacheDir = mkdtempSync(join(tmpdir(), "qb-cookie-kit-"));
    dirs.push(cacheDir);
    const modules: ProviderModule[] = DESCRIPTORS.map((descriptor) => ({
      descriptor,
      strategies: descriptor.id === "amp" ? withFreshCookieRetry(web) : [],
    }));
    const svc = new UsageService({
      catalog: catalogOf(modules),
      config: { path: () => "/tmp/config.json", load: async () => ({ providers: [] }), update: async () => ({ providers: [] }) },
      cache: new StoredSnapshotCache(new FileTextStore(cacheDir)),
      clock: { now: () => now },
      env: {},
      status: { statusFor: async () => null },
      transport: { send: async () => Promise.reject(new Error("no network here")) },
      processes: new NodeProcessRunner(""),
      browsers: access,
      writeRemedies: writeCliRemedies,
      kept: new StoredKeptValues(new FileTextStore(cacheDir), access.secrets, { now: () => now }),
    });
    return { svc, access, sent, queries };
  }

  it("drops a refused cached header and retries once with fresh browser cookies, in the same run", async () => {
    const { svc, access, sent, queries } = setup(profiles);
    await access.secrets.set("quotabar", "cookie:amp", JSON.stringify({ header: "session=stale", storedAt: "x", source: "chrome/Work" }));
    const [usage] = (await svc.usage({ providers: ["amp"] })).providers;
    expect(usage).toMatchObject({ ok: true, source: "web", primary: { usedPercent: 7 } });
    expect(sent).toEqual(["session=stale", "session=s-work"]);
    expect(queries).toHaveLength(1);
    expect(JSON.parse((await access.secrets.get("quotabar", "cookie:amp")) as string).header).toBe("session=s-work");
  });

  it("forgets a freshly imported header the upstream refuses, without a second try", async () => {
    const { svc, access, sent } = setup([
      { browser: "chrome", profile: "Old", cookies: [cookie({ name: "session", value: "logged-out" })] },
    ]);
    const [usage] = (await svc.usage({ providers: ["amp"] })).providers;
    expect(usage).toMatchObject({ ok: false, error: { code: "unauthorized" } });
    expect(sent).toEqual(["session=logged-out"]);
    expect(await access.secrets.get("quotabar", "cookie:amp")).toBeNull();
  });

  it("keeps the cache on other errors, and runs the retry only after a refusal", async () => {
    const { svc, access, sent, queries } = setup([]);
    await access.secrets.set("quotabar", "cookie:amp", JSON.stringify({ header: "session=s-work", storedAt: "x", source: "chrome/Work" }));
    const [ok] = (await svc.usage({ providers: ["amp"] })).providers;
    expect(ok?.ok).toBe(true);
    expect(sent).toEqual(["session=s-work"]);
    expect(queries).toEqual([]);
  });
});
