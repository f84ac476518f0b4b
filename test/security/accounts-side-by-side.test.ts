import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StoredKeptValues } from "../../adapters/cache/stored-kept-values.js";
import { FileTextStore } from "../../adapters/cache/file-text-store.js";
import { MemorySecretStore } from "../../adapters/secrets/memory-secret-store.js";
import { accountKey } from "../../domain/account.js";
import { browsersForAccount } from "../../domain/account-browsers.js";
import { keepCookieHeader, readCachedCookie } from "../../providers/kit/browser-cookies.js";
import { OLLAMA_TEST_COOKIE, OLLAMA_TEST_SESSION } from "../../providers/ollama/simulator.js";
import { OPENROUTER_TEAM_TEST_KEY, OPENROUTER_TEST_KEY } from "../../providers/openrouter/simulator.js";
import type { BrowserAccess, CookieCandidate } from "../../ports/browser-credentials.js";
import type { CredentialContext } from "../../ports/fetch-context.js";
import { tempHome, useSimulator } from "../helpers/harness.js";
import { writeConfig } from "../helpers/write-config.js";

/**
 * Two accounts of one provider, side by side, each with its own key: nothing read, kept or minted
 * for one is ever served for the other (snapshots, stale serving, history, minted tokens, cookie
 * headers), and what the default account kept before accounts existed stays where it was.
 */
describe("two accounts of one provider", () => {
  const s = useSimulator();
  const both = () =>
    writeConfig(s.home, {
      providers: [
        { id: "openrouter", apiKey: OPENROUTER_TEST_KEY },
        { id: "openrouter", account: "team", apiKey: OPENROUTER_TEAM_TEST_KEY },
      ],
    });
  const cacheFile = (...parts: string[]) => join(s.home, ".cache", "quotabar", ...parts);
  const keyOf = (authorization: string | undefined) => (authorization ?? "").replace(/^Bearer /, "");

  it("answers for each account with its own key, and keeps each one's snapshot and history apart", async () => {
    const clear = both();
    try {
      const doc = await s.quotabar().usage({ providers: ["openrouter"] });
      expect(doc.providers.map((p) => [p.id, p.account, p.ok])).toEqual([
        ["openrouter", null, true],
        ["openrouter", "team", true],
      ]);
      const [mine, team] = doc.providers;
      // the team key's credits (250, 187.5 used) are not the default key's
      expect(team?.primary?.used).toBe(187.5);
      expect(mine?.primary?.used).not.toBe(187.5);
      // the team account's requests carried its key only, and never the default's management key
      const sent = s.sim.requests.filter((r) => r.path.startsWith("/api/v1/")).map((r) => [r.path, keyOf(r.headers.authorization)]);
      expect(sent).toContainEqual(["/api/v1/credits", OPENROUTER_TEAM_TEST_KEY]);
      expect(sent.filter(([path]) => path === "/api/v1/activity")).toHaveLength(1);

      // the default account's files are where they were before accounts; the team's beside them
      expect(existsSync(cacheFile("snapshots", "openrouter.json"))).toBe(true);
      expect(existsSync(cacheFile("snapshots", "openrouter_team.json"))).toBe(true);
      expect(readFileSync(cacheFile("snapshots", "openrouter_team.json"), "utf8")).not.toContain(OPENROUTER_TEAM_TEST_KEY);

      const history = await s.quotabar().history({ providers: ["openrouter:team"] });
      expect(history.map((h) => [h.provider, h.account])).toEqual([["openrouter", "team"]]);
      expect(history[0]?.meters[0]?.points.map((p) => p.used)).toEqual([187.5]);
    } finally {
      clear();
    }
  });

  it("serves each account's own last numbers when the upstream fails, and none to a key that changed", async () => {
    const clear = both();
    try {
      const good = await s.quotabar().usage({ providers: ["openrouter"] });
      s.sim.setScenario("openrouter", "upstream_500");
      const down = await s.quotabar().usage({ providers: ["openrouter"] });
      for (const [i, usage] of down.providers.entries()) {
        expect(usage).toMatchObject({ ok: false, stale: true, account: good.providers[i]?.account });
        expect(usage.primary?.used).toBe(good.providers[i]?.primary?.used);
      }
      // the team account now given another key: the team key's snapshot is not its
      writeConfig(s.home, {
        providers: [
          { id: "openrouter", apiKey: OPENROUTER_TEST_KEY },
          { id: "openrouter", account: "team", apiKey: "sk-or-v1-someone-else-0123456789abcdef" },
        ],
      });
      const changed = await s.quotabar().usage({ providers: ["openrouter:team"] });
      expect(changed.providers).toHaveLength(1);
      expect(changed.providers[0]).toMatchObject({ account: "team", ok: false, stale: false, primary: null });
    } finally {
      clear();
    }
  });

  it("an account that fails never hides the other, and a named account never falls back on the environment's key", async () => {
    const clear = writeConfig(s.home, {
      providers: [
        { id: "openrouter", account: "broken", apiKey: "sk-or-v1-refused-0123456789abcdef" },
        { id: "openrouter", account: "empty" },
        { id: "openrouter", account: "team", apiKey: OPENROUTER_TEAM_TEST_KEY },
      ],
    });
    try {
      // OPENROUTER_API_KEY is set (the simulator's env): the default account is there, "empty" has no key of its own
      const doc = await s.quotabar().usage({ providers: ["openrouter"] });
      const byAccount = Object.fromEntries(doc.providers.map((p) => [p.account ?? "(default)", p]));
      expect(Object.keys(byAccount)).toEqual(["(default)", "broken", "empty", "team"]);
      expect(byAccount.broken).toMatchObject({ ok: false, error: { code: "unauthorized" } });
      expect(byAccount.empty).toMatchObject({ ok: false, error: { code: "not_configured" } });
      expect(byAccount.team).toMatchObject({ ok: true });
      expect(byAccount["(default)"]).toMatchObject({ ok: true });
      expect(JSON.stringify(doc)).not.toContain("sk-or-v1-refused");
    } finally {
      clear();
    }
  });
});

describe("two accounts of a cookie provider", () => {
  const s = useSimulator();

  it("each sends its own pasted cookie; the refused one gets no numbers of the other, fresh or stale", async () => {
    const other = "__Secure-session=ollama-someone-else-session-0123456789";
    const clear = writeConfig(s.home, {
      providers: [
        { id: "ollama", cookieHeader: OLLAMA_TEST_COOKIE },
        { id: "ollama", account: "work", cookieHeader: other },
      ],
    });
    try {
      const first = await s.quotabar().usage({ providers: ["ollama"] });
      expect(first.providers.map((p) => [p.account, p.ok])).toEqual([
        [null, true],
        ["work", false],
      ]);
      const cookies = s.sim.requests.filter((r) => r.providerId === "ollama").map((r) => String(r.headers.cookie ?? ""));
      expect(cookies.some((c) => c.includes(OLLAMA_TEST_SESSION))).toBe(true);
      expect(cookies.some((c) => c.includes("ollama-someone-else-session"))).toBe(true);
      // the refused account never sent the other's session
      expect(cookies.filter((c) => c.includes(OLLAMA_TEST_SESSION) && c.includes("someone-else"))).toEqual([]);

      s.sim.setScenario("ollama", "upstream_500");
      const down = await s.quotabar().usage({ providers: ["ollama"] });
      expect(down.providers.map((p) => [p.account, p.stale, p.primary === null])).toEqual([
        [null, true, false],
        ["work", false, true],
      ]);
      expect(JSON.stringify(down)).not.toContain("someone-else-session");
    } finally {
      clear();
    }
  });
});

describe("a sign-in the machine has once (a vendor CLI's file)", () => {
  const s = useSimulator();

  it("is the default account's: a named account without a credential of its own reads none of it", async () => {
    await s.sim.seedHome(s.home, ["amp"]); // the Amp CLI's secrets file
    const clear = writeConfig(s.home, { providers: [{ id: "amp", account: "work" }] });
    try {
      const doc = await s.quotabar({ AMP_COOKIE: undefined }).usage({ providers: ["amp"] });
      const byAccount = Object.fromEntries(doc.providers.map((p) => [p.account ?? "(default)", p]));
      expect(byAccount["(default)"]).toMatchObject({ ok: true, source: "cli" });
      expect(byAccount.work).toMatchObject({ ok: false, primary: null, error: { code: "not_configured" } });
    } finally {
      clear();
    }
  });
});

describe("what is kept for an account is its own, even with the same credential", () => {
  it("minted tokens and plain values", async () => {
    const home = tempHome();
    const now = { now: () => new Date("2026-11-26T18:00:00Z") };
    const store = new StoredKeptValues(new FileTextStore(home), new MemorySecretStore(), now);
    const ignore = () => undefined;
    await store.scoped(accountKey("vertexai"), ["same-sign-in"], ignore).writeSecret("token", "ya29.default-token", 60_000);
    await store.scoped(accountKey("vertexai"), ["same-sign-in"], ignore).write("project", "p-default", 60_000);
    const work = store.scoped(accountKey("vertexai", "work"), ["same-sign-in"], ignore);
    expect(await work.readSecret("token")).toBeNull();
    expect(await work.read("project")).toBeNull();
    await work.writeSecret("token", "ya29.work-token", 60_000);
    expect(await store.scoped(accountKey("vertexai"), ["same-sign-in"], ignore).readSecret("token")).toBe("ya29.default-token");
    // forgetting one account leaves the other's
    await store.removeAll(accountKey("vertexai", "work"));
    expect(await store.scoped(accountKey("vertexai"), ["same-sign-in"], ignore).readSecret("token")).toBe("ya29.default-token");
  });

  it("cookie headers taken from a browser, and the browser profiles an account may read", async () => {
    const secrets = new MemorySecretStore();
    const candidates: CookieCandidate[] = [
      { browser: "chrome", profile: "Personal", cookies: [] },
      { browser: "chrome", profile: "Work", cookies: [] },
    ];
    const asked: string[][] = [];
    const access: BrowserAccess = {
      cookies: {
        read: async (query) => {
          asked.push([...query.browsers]);
          return { candidates, notes: [] };
        },
      },
      localStorage: { read: async () => ({ entries: [], notes: [] }) },
      secrets,
      interactive: false,
    };
    const context = (entry: CredentialContext["entry"]): CredentialContext => ({
      env: {},
      entry,
      now: () => new Date("2026-11-26T18:00:00Z"),
      sourceMode: "auto",
      processes: undefined as never,
      browsers: browsersForAccount(entry, access),
    });
    const mine = context({ id: "kimi" });
    const work = context({ id: "kimi", account: "work", cookieSource: "chrome:work" });
    await keepCookieHeader(mine, { browser: "chrome", profile: "Personal", header: "kimi-auth=personal-session" });
    expect(await readCachedCookie(work)).toBeNull();
    await keepCookieHeader(work, { browser: "chrome", profile: "Work", header: "kimi-auth=work-session" });
    expect((await readCachedCookie(mine))?.header).toBe("kimi-auth=personal-session");
    expect((await readCachedCookie(work))?.header).toBe("kimi-auth=work-session");

    // the default account reads every profile; a named one only the profile it names, and one without a profile none
    expect(
      (await mine.browsers.cookies.read({ hosts: ["kimi.com"], browsers: ["chrome", "firefox"] }, { interactive: false })).candidates,
    ).toHaveLength(2);
    const workRead = await work.browsers.cookies.read({ hosts: ["kimi.com"], browsers: ["firefox", "chrome"] }, { interactive: false });
    expect(workRead.candidates.map((c) => c.profile)).toEqual(["Work"]);
    expect(asked.at(-1)).toEqual(["chrome"]);
    const bare = context({ id: "kimi", account: "other" });
    const none = await bare.browsers.cookies.read({ hosts: ["kimi.com"], browsers: ["chrome"] }, { interactive: false });
    expect(none.candidates).toEqual([]);
    expect(none.notes[0]?.detail).toContain("cookieSource");
  });
});
