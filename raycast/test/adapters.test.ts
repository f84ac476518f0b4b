import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigFileError, JsonConfigStore } from "../../adapters/config/json-config-store.js";
import { ProviderSimulator } from "../../simulator/server.js";
import { StoredSnapshotCache } from "../../adapters/cache/stored-snapshot-cache.js";
import { StoredStatusCache } from "../../adapters/cache/stored-status-cache.js";
import { CacheTextStore } from "../shared/adapters/cache-text-store.js";
import { DocumentCache } from "../shared/adapters/document-cache.js";
import { KeyValueConfigStore } from "../shared/adapters/key-value-config-store.js";
import { PreferenceConfigStore } from "../shared/adapters/preference-config-store.js";
import { createRaycastConfigStore, createRaycastCore, raycastPath } from "../shared/raycast-core.js";
import { fetchUsage, listProviders } from "../shared/usage.js";
import { saveSignInToken } from "../src/sign-in-token.js";
import { copilot, doc } from "./documents.js";
import { memoryCache, memoryLocalStorage } from "../doubles/memory-stores.js";

// Runs without Raycast (and under Node 22 in CI): these are the adapters the extension ships.

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "quotabar-raycast-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("KeyValueConfigStore (LocalStorage)", () => {
  it("starts empty, persists updates and keeps concurrent writers' changes", async () => {
    const storage = memoryLocalStorage();
    const store = new KeyValueConfigStore(storage);
    expect(await store.load()).toEqual({ version: 1, providers: [] });
    await Promise.all([
      store.update((c) => void c.providers.push({ id: "copilot", apiKey: "gho_a" })),
      store.update((c) => void c.providers.push({ id: "warp", enabled: false })),
    ]);
    expect((await new KeyValueConfigStore(storage).load()).providers).toEqual([
      { id: "copilot", apiKey: "gho_a" },
      { id: "warp", enabled: false },
    ]);
  });

  it("reports damaged contents as a config error", async () => {
    const storage = memoryLocalStorage();
    storage.items.set("config.json", "{ nope");
    await expect(new KeyValueConfigStore(storage).load()).rejects.toBeInstanceOf(ConfigFileError);
  });
});

describe("PreferenceConfigStore", () => {
  it("reads the shared CLI file with preferences on top, and writes only the file's own content back", async () => {
    const file = join(dir, "shared.json");
    writeFileSync(file, JSON.stringify({ version: 1, providers: [{ id: "zai", region: "bigmodel-cn", note: "mine" }], extra: 1 }));
    const store = new PreferenceConfigStore(new JsonConfigStore(file), { zaiApiKey: "pref-secret" });
    expect((await store.load()).providers[0]).toEqual({
      id: "zai",
      region: "bigmodel-cn",
      note: "mine",
      apiKey: "pref-secret",
      enabled: true,
    });
    await store.update((c) => void c.providers.push({ id: "warp" }));
    const written = readFileSync(file, "utf8");
    expect(written).not.toContain("pref-secret");
    expect(JSON.parse(written)).toEqual({
      version: 1,
      providers: [{ id: "zai", region: "bigmodel-cn", note: "mine" }, { id: "warp" }],
      extra: 1,
    });
  });

  it("uses the shared file only when the preference names one", () => {
    const env = { HOME: dir };
    expect(createRaycastConfigStore({ preferences: {}, localStorage: memoryLocalStorage(), env }).path()).toBe("Raycast LocalStorage");
    expect(
      createRaycastConfigStore({ preferences: { configPath: "~/q/config.json" }, localStorage: memoryLocalStorage(), env }).path(),
    ).toBe(join(dir, "q", "config.json"));
  });
});

describe("raycastPath", () => {
  it("adds Homebrew's and the user's bin folders to Raycast's bare PATH, once", () => {
    expect(raycastPath({ PATH: "/usr/bin:/bin", HOME: "/Users/me" })).toBe(
      "/usr/bin:/bin:/opt/homebrew/bin:/usr/local/bin:/Users/me/.local/bin",
    );
    expect(raycastPath({ PATH: "/opt/homebrew/bin:/usr/bin", HOME: "/Users/me" })).toBe(
      "/opt/homebrew/bin:/usr/bin:/usr/local/bin:/Users/me/.local/bin",
    );
  });
});

describe("saveSignInToken", () => {
  it("lands in LocalStorage without a shared file", async () => {
    const storage = memoryLocalStorage();
    const store = createRaycastConfigStore({ preferences: {}, localStorage: storage, env: { HOME: dir } });
    expect(await saveSignInToken(store, "copilot", "gho_token")).toBe("Raycast LocalStorage");
    expect(JSON.parse(storage.items.get("config.json") as string).providers).toEqual([
      { id: "copilot", apiKey: "gho_token", enabled: true },
    ]);
  });

  it("lands in the shared CLI config file when one is set, keeping its other entries", async () => {
    const file = join(dir, "cli.json");
    writeFileSync(file, JSON.stringify({ version: 1, providers: [{ id: "copilot", enabled: false, workspace: "x" }, { id: "warp" }] }));
    const store = createRaycastConfigStore({ preferences: { configPath: file }, localStorage: memoryLocalStorage(), env: { HOME: dir } });
    expect(await saveSignInToken(store, "copilot", "gho_new")).toBe(file);
    expect(JSON.parse(readFileSync(file, "utf8")).providers).toEqual([
      { id: "copilot", enabled: true, workspace: "x", apiKey: "gho_new" },
      { id: "warp" },
    ]);
  });
});

describe("caches", () => {
  it("keep the last snapshot and the last document, and read damage as nothing", async () => {
    const cache = memoryCache();
    const snapshots = new StoredSnapshotCache(new CacheTextStore(cache));
    expect(await snapshots.read("copilot", ["gho_token"])).toBeNull();
    await snapshots.write(copilot, ["gho_token"]);
    expect(await snapshots.read("copilot", ["gho_token"])).toEqual(copilot);
    expect(await snapshots.read("copilot", ["gho_other"])).toBeNull(); // another credential's numbers are never shown
    expect(cache.get("snapshots/copilot")).not.toContain("gho_token");
    cache.set("snapshots/copilot", "{");
    expect(await snapshots.read("copilot", ["gho_token"])).toBeNull();
    await snapshots.remove("copilot");
    expect(cache.get("snapshots/copilot")).toBeUndefined();

    const documents = new DocumentCache(cache);
    expect(documents.read()).toBeUndefined();
    documents.write(doc(copilot));
    expect(documents.read()).toEqual(doc(copilot));
    cache.set("usage-document", JSON.stringify({ version: 2 }));
    expect(documents.read()).toBeUndefined();
  });
});

describe("StoredStatusCache in Raycast's Cache", () => {
  it("keeps the last poll, and forgets one made through another origin map", async () => {
    const cache = memoryCache();
    const entry = {
      feedUrl: "https://www.githubstatus.com",
      checkedAt: "2026-11-20T16:00:00.000Z",
      fetchedAt: "2026-11-20T16:00:00.000Z",
      status: { indicator: "none" as const, description: "All Systems Operational", url: "https://www.githubstatus.com", incidents: [] },
      error: null,
    };
    await new StoredStatusCache(new CacheTextStore(cache), (url) => `http://127.0.0.1:1/${new URL(url).host}`).write("copilot", entry);
    expect(
      await new StoredStatusCache(new CacheTextStore(cache), (url) => `http://127.0.0.1:1/${new URL(url).host}`).read("copilot"),
    ).toEqual(entry);
    expect(await new StoredStatusCache(new CacheTextStore(cache)).read("copilot")).toBeNull();
    cache.set("status/copilot", "nope");
    expect(await new StoredStatusCache(new CacheTextStore(cache)).read("copilot")).toBeNull();
  });
});

describe("the Raycast composition root against the simulator", () => {
  let sim: ProviderSimulator;
  beforeAll(async () => {
    sim = await ProviderSimulator.start();
  });
  afterAll(() => sim.stop());

  const keys = () => {
    const env = sim.env();
    return { openrouterApiKey: env.OPENROUTER_API_KEY!, warpApiKey: env.WARP_API_KEY!, zaiApiKey: env.Z_AI_API_KEY! };
  };
  // one poll of GitHub's page starts with the incident.io proxy feed, then reads summary and components
  const statusRequests = () => sim.requests.filter((r) => r.providerId === "status-github" && r.path.startsWith("/proxy/")).length;

  it("fetches the providers whose keys are in the preferences, and caches the document", async () => {
    const cache = memoryCache();
    const adapters = {
      preferences: keys(),
      localStorage: memoryLocalStorage(),
      cache,
      env: { HOME: dir, QUOTABAR_ORIGIN_MAP: sim.env().QUOTABAR_ORIGIN_MAP },
    };
    const documents = new DocumentCache(cache);
    const document = await fetchUsage(adapters, documents);
    expect(document.providers.map((p) => [p.id, p.ok])).toEqual([
      ["openrouter", true],
      ["zai", true],
      ["warp", true],
    ]);
    expect(document.providers.find((p) => p.id === "warp")!.primary).toMatchObject({ usedPercent: 81, used: 1215, limit: 1500 });
    expect(documents.read()).toEqual(document);
    // the secrets never reach the cache
    for (const value of cache.items.values()) for (const key of Object.values(keys())) expect(value).not.toContain(key);
  });

  it("serves the last good snapshot from Raycast's cache, marked stale, when a fetch fails", async () => {
    const cache = memoryCache();
    const env = { HOME: dir, QUOTABAR_ORIGIN_MAP: sim.env().QUOTABAR_ORIGIN_MAP };
    const make = (at: string) =>
      createRaycastCore({
        preferences: { zaiApiKey: keys().zaiApiKey },
        localStorage: memoryLocalStorage(),
        cache,
        env,
        clock: { now: () => new Date(at) },
      }).usage;
    await make("2026-11-20T14:00:00.000Z").usage();
    sim.setScenario("zai", "upstream_500");
    try {
      const [zai] = (await make("2026-11-20T16:00:00.000Z").usage()).providers;
      expect(zai).toMatchObject({ id: "zai", ok: false, stale: true, fetchedAt: "2026-11-20T14:00:00.000Z", error: { code: "upstream" } });
      expect(zai!.primary?.usedPercent).toBeGreaterThan(0);
    } finally {
      sim.setScenario("zai", "ok");
    }
  });

  it("polls status pages once per interval, keeping the poll in Raycast's cache, and not at all when switched off", async () => {
    sim.setScenario("status-github", "incident");
    const cache = memoryCache();
    const env = { HOME: dir, QUOTABAR_ORIGIN_MAP: sim.env().QUOTABAR_ORIGIN_MAP };
    const preferences = { copilotApiKey: sim.env().COPILOT_API_TOKEN!, statusChecks: true };
    const service = (prefs: typeof preferences) =>
      createRaycastCore({ preferences: prefs, localStorage: memoryLocalStorage(), cache, env }).usage;
    try {
      sim.requests.length = 0;
      const [copilot] = (await service(preferences).usage({ status: true })).providers;
      expect(copilot).toMatchObject({
        id: "copilot",
        ok: true,
        status: { indicator: "minor", incidents: [{ name: "Disruption with some GitHub services" }] },
      });
      expect(statusRequests()).toBe(1);
      await service(preferences).usage({ status: true });
      expect(statusRequests()).toBe(1);
      cache.items.clear();
      const [off] = (await service({ ...preferences, statusChecks: false }).usage({ status: true })).providers;
      expect(off!.status).toBeNull();
      expect(statusRequests()).toBe(1);
    } finally {
      sim.setScenario("status-github", "operational");
    }
  });

  it("words errors with Raycast's remedy writer: preferences, never env variables or CLI commands", async () => {
    const env = { HOME: dir, QUOTABAR_ORIGIN_MAP: sim.env().QUOTABAR_ORIGIN_MAP };
    sim.setScenario("warp", "unauthorized");
    try {
      const core = createRaycastCore({
        preferences: { warpApiKey: "wk-wrong" },
        localStorage: memoryLocalStorage(),
        cache: memoryCache(),
        env,
      });
      const [warp] = (await core.usage.usage({ providers: ["warp"] })).providers;
      expect(warp!.error).toMatchObject({
        code: "unauthorized",
        hint: expect.stringContaining("Add your Warp API Key in the extension preferences."),
      });
      expect(warp!.error!.hint).not.toMatch(/WARP_API_KEY|quotabar config|providers\[/);
      const [kimik2] = (await core.usage.usage({ providers: ["kimik2"] })).providers;
      expect(kimik2!.error).toMatchObject({
        code: "not_configured",
        hint: expect.stringContaining("Add your Kimi K2 API Key (Unofficial) in the extension preferences."),
      });
    } finally {
      sim.setScenario("warp", "ok");
    }
  });

  it("lists every provider with whether it is set up, for the list's Not Set Up rows", async () => {
    const env = { HOME: dir, QUOTABAR_ORIGIN_MAP: sim.env().QUOTABAR_ORIGIN_MAP };
    const listing = await listProviders({
      preferences: { warpApiKey: "wk-1" },
      localStorage: memoryLocalStorage(),
      cache: memoryCache(),
      env,
    });
    expect(listing.map((l) => l.id)).toHaveLength(21);
    expect(listing.find((l) => l.id === "warp")).toMatchObject({ enabled: true, credentialsFound: true });
    expect(listing.find((l) => l.id === "openrouter")).toMatchObject({ enabled: false });
  });

  it("runs the Copilot device flow (core.signIn) through the same origin map", async () => {
    sim.setScenario("copilot", "device_ok");
    try {
      const core = createRaycastCore({
        preferences: {},
        localStorage: memoryLocalStorage(),
        cache: memoryCache(),
        env: { HOME: dir, QUOTABAR_ORIGIN_MAP: sim.env().QUOTABAR_ORIGIN_MAP },
      });
      const flow = (await core.signIn("copilot"))!;
      expect(await core.signIn("warp")).toBeNull();
      const code = await flow.start();
      expect(code).toMatchObject({ userCode: "WDJB-MJHT", verificationUri: "https://github.com/login/device" });
      expect(await flow.poll(code)).toMatch(/^gho_/);
    } finally {
      sim.setScenario("copilot", "ok");
    }
  });
});
