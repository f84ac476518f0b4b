import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { noBrowserAccess } from "../../adapters/browser/lazy-browser-access.js";
import { FileTextStore } from "../../adapters/cache/file-text-store.js";
import { StoredKeptValues } from "../../adapters/cache/stored-kept-values.js";
import { StoredSnapshotCache } from "../../adapters/cache/stored-snapshot-cache.js";
import { ConfigFileError } from "../../adapters/config/config-file-error.js";
import { parseConfig } from "../../adapters/config/parse-config.js";
import { NodeProcessRunner } from "../../adapters/process/node-process-runner.js";
import { MemorySecretStore } from "../../adapters/secrets/memory-secret-store.js";
import { accountKey, accountRef, parseAccountRef, storageName } from "../../domain/account.js";
import { QuotabarError } from "../../domain/errors.js";
import { EventService } from "../../domain/event-service.js";
import { StoredNotifiedState } from "../../adapters/cache/stored-notified-state.js";
import { UsageDocumentSchema, type UsageDocument } from "../../domain/usage-document.js";
import { checkedUsage } from "../../domain/usage-check.js";
import { meter } from "../../domain/meter.js";
import { catalogOf } from "../../domain/provider-catalog.js";
import { ACCOUNTS_AT_ONCE, UsageService } from "../../domain/usage-service.js";
import { writeCliRemedies } from "../../library/remedy-text.js";
import { cleanSecret, machineWide } from "../../providers/kit/credentials.js";
import { vendorHome } from "../../providers/kit/vendor-home.js";
import { DESCRIPTORS } from "../../providers/registry.js";
import type { ProviderConfigEntry, QuotabarConfig } from "../../ports/config-store.js";
import type { AnyFetchStrategy } from "../../ports/fetch-strategy.js";
import { providerUsage } from "../helpers/usage.js";
import type { FetchContext } from "../../ports/fetch-context.js";

const now = new Date("2026-11-20T10:00:00.000Z");

/** A key provider: the entry's apiKey, else ZAI_KEY (the kit's rule); `fetch` says what each key answers. */
function keyed(fetch: (key: string, context: FetchContext) => Promise<number>): AnyFetchStrategy {
  return {
    source: "api",
    credentials: {
      resolve: async (context) =>
        cleanSecret(context.entry.apiKey) ?? (typeof context.entry.account === "string" ? null : cleanSecret(context.env.ZAI_KEY)),
    },
    fetch: (key: unknown, context: FetchContext) => fetch(key as string, context),
    toSnapshot: (used: number) => ({
      plan: null,
      primary: meter("Tokens", { usedPercent: used }),
      secondary: null,
      tertiary: null,
      details: [],
    }),
    missingCredential: () => new QuotabarError("not_configured", "no key"),
  };
}

function service(
  fetch: (key: string, context: FetchContext) => Promise<number>,
  providers: ProviderConfigEntry[],
  env: Record<string, string> = {},
) {
  const config: QuotabarConfig = { providers };
  const dir = mkdtempSync(join(tmpdir(), "qb-accounts-"));
  return new UsageService({
    catalog: catalogOf(DESCRIPTORS.map((descriptor) => ({ descriptor, strategies: descriptor.id === "zai" ? [keyed(fetch)] : [] }))),
    config: { path: () => "/nowhere/config.json", load: async () => config, update: async () => config },
    cache: new StoredSnapshotCache(new FileTextStore(join(dir, "cache"))),
    clock: { now: () => now },
    env,
    status: { statusFor: async () => null },
    transport: { send: async () => Promise.reject(new Error("no network in this test")) },
    processes: new NodeProcessRunner(),
    browsers: noBrowserAccess(),
    writeRemedies: writeCliRemedies,
    kept: new StoredKeptValues(new FileTextStore(join(dir, "kept")), new MemorySecretStore(), { now: () => now }),
  });
}

describe("an account's identity", () => {
  it("is named `id` for the default account (where it was kept before accounts) and `id@label` otherwise, one way per label", () => {
    expect(storageName(accountKey("claude"))).toBe("claude");
    const labels = ["work", "Work", "w.ork", "w_ork", "w_2eork", "W", "_w", "a-b", "..", "_5f"];
    const names = labels.map((label) => storageName(accountKey("claude", label)));
    expect(names[0]).toBe("claude@work");
    // what a file store keeps of a name (case folded, `.` and `@` as `_`) still tells every label apart
    const onDisk = names.map((name) => name.toLowerCase().replace(/[^a-z0-9_-]/g, "_"));
    expect(new Set(onDisk).size).toBe(labels.length);
    expect(onDisk.every((name) => /^claude_[a-z0-9_-]+$/.test(name))).toBe(true);
  });

  it("is written `claude:work` where a person names it", () => {
    expect(parseAccountRef("claude:work")).toEqual({ id: "claude", account: "work" });
    expect(parseAccountRef("claude")).toEqual({ id: "claude", account: null });
    expect(accountRef(accountKey("claude", "work"))).toBe("claude:work");
  });
});

describe("the usage document's account", () => {
  const entry = providerUsage({ fetchedAt: "2026-11-20T10:00:00.000Z" });

  it("is a label or null, and a document from before accounts (no field) is still valid", () => {
    const old = { version: 1, generatedAt: "2026-11-20T10:00:00.000Z", providers: [entry] };
    expect(UsageDocumentSchema.safeParse(old).success).toBe(true);
    expect(checkedUsage(entry)).not.toHaveProperty("account");
    for (const account of [null, "work"]) {
      expect(UsageDocumentSchema.parse({ ...old, providers: [{ ...entry, account }] }).providers[0]?.account).toBe(account);
      expect(checkedUsage({ ...entry, account })?.account).toBe(account);
    }
    expect(UsageDocumentSchema.safeParse({ ...old, providers: [{ ...entry, account: 7 }] }).success).toBe(false);
    expect(checkedUsage({ ...entry, account: 7 })).toBeNull();
  });
});

describe("accounts in the config file", () => {
  const load = (text: string) => {
    try {
      parseConfig("/home/me/.config/quotabar/config.json", text);
      return null;
    } catch (error) {
      return error as ConfigFileError;
    }
  };

  it("refuses a second entry for one account, naming the lines of both", () => {
    const text = [
      '{ "providers": [',
      '  { "id": "openrouter", "account": "work" },',
      '  { "id": "zai" },',
      '  { "id": "openrouter", "account": "work" }',
      "] }",
    ].join("\n");
    const error = load(text);
    expect(error).toBeInstanceOf(ConfigFileError);
    expect(error?.line).toBe(4);
    expect(error?.message).toBe(
      "/home/me/.config/quotabar/config.json:4:3: providers[2] is a second entry for the account of providers[0] (line 2)",
    );
    expect(load('{ "providers": [{ "id": "zai" }, { "id": "zai", "account": "work" }, { "id": "warp", "account": "work" }] }')).toBeNull();
  });

  it("refuses a label with control characters, markup or too many characters, and never quotes it", () => {
    for (const label of ["work\u001b[31m", "<b>work</b>", "a b", "x".repeat(33), "", "wörk", "work\nline"]) {
      const error = load(JSON.stringify({ providers: [{ id: "zai", account: label }] }));
      expect(error?.message).toMatch(/providers\[0\]\.account must be a label of 1 to 32 letters, digits, -, _ or \.$/);
      if (label !== "") expect(error?.message).not.toContain(label);
    }
  });
});

describe("a provider's accounts", () => {
  const pair: ProviderConfigEntry[] = [
    { id: "zai", apiKey: "key-default" },
    { id: "zai", account: "work", apiKey: "key-work" },
  ];

  it("-p zai is every account, zai:work one; each has its own numbers, and one failing never hides the other", async () => {
    const svc = service(async (key) => {
      if (key === "key-default") throw new QuotabarError("unauthorized", "refused");
      return 40;
    }, pair);
    const all = await svc.usage({ providers: ["zai"] });
    expect(all.providers.map((p) => [p.account, p.ok, p.primary?.usedPercent ?? null])).toEqual([
      [null, false, null],
      ["work", true, 40],
    ]);
    const one = await svc.usage({ providers: ["zai:work"] });
    expect(one.providers.map((p) => p.account)).toEqual(["work"]);
    await expect(svc.usage({ providers: ["zai:home"] })).rejects.toThrow("Unknown account: zai:home");
  });

  it("has no default row when only named accounts are configured and nothing is found for the default", async () => {
    const named = [{ id: "zai", account: "work", apiKey: "key-work" }];
    expect((await service(async () => 10, named).usage({ providers: ["zai"] })).providers.map((p) => p.account)).toEqual(["work"]);
    // a key in the environment is the default account's: it is there too
    const withEnv = await service(async () => 10, named, { ZAI_KEY: "key-env" }).usage({ providers: ["zai"] });
    expect(withEnv.providers.map((p) => p.account)).toEqual([null, "work"]);
    // listed one row per account
    const listed = await service(async () => 10, named).listProviders();
    expect(listed.filter((row) => row.id === "zai").map((row) => [row.account, row.credentialsFound])).toEqual([
      [null, false],
      ["work", true],
    ]);
  });

  it("fetches 200 accounts of one provider at most four at a time, and answers for every one within the provider's budget", async () => {
    const many = Array.from({ length: 200 }, (_, i) => ({ id: "zai", account: `a${i}`, apiKey: `key-${i}` }));
    let running = 0;
    let most = 0;
    let started = 0;
    const svc = service(async (_key, context) => {
      started++;
      running++;
      most = Math.max(most, running);
      try {
        // an upstream that never answers: only the budget ends it
        await new Promise((_, reject) => context.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true }));
        return 0;
      } finally {
        running--;
      }
    }, many);
    const doc = await svc.usage({ providers: ["zai"], timeoutMs: 300 });
    expect(doc.providers).toHaveLength(200);
    expect(new Set(doc.providers.map((p) => p.account)).size).toBe(200);
    expect(doc.providers.every((p) => !p.ok && p.error?.code === "timeout")).toBe(true);
    expect(most).toBe(ACCOUNTS_AT_ONCE);
    // the accounts still waiting when the budget ran out never started a request
    expect(started).toBeLessThan(200);
  });
});

describe("events of two accounts", () => {
  it("carry their account, and what was told for one is not told for the other", async () => {
    const store = new FileTextStore(mkdtempSync(join(tmpdir(), "qb-events-")));
    const config: QuotabarConfig = { providers: [{ id: "zai", account: "work", notify: { thresholds: [50] } }] };
    const events = new EventService({
      config: { path: () => "/nowhere", load: async () => config, update: async () => config },
      clock: { now: () => now },
      notified: new StoredNotifiedState(store),
    });
    const usage = (account: string | null, usedPercent: number) => ({
      id: "zai",
      account,
      name: "z.ai",
      ok: true,
      source: "api",
      plan: null,
      primary: meter("Tokens", { usedPercent, resetsAt: "2026-11-20T15:00:00.000Z" }),
      secondary: null,
      tertiary: null,
      details: [],
      status: null,
      fetchedAt: now.toISOString(),
      stale: false,
      error: null,
    });
    const doc: UsageDocument = { version: 1, generatedAt: now.toISOString(), providers: [usage(null, 85), usage("work", 60)] };
    const told = await events.raise(doc);
    // the default account has the default thresholds (80, 95); the work entry its own (50)
    expect(told.map((e) => [e.account, e.type === "threshold" ? e.threshold : null])).toEqual([
      [null, 80],
      ["work", 50],
    ]);
    expect(await events.raise(doc)).toEqual([]);
    // forgetting the work account's state tells its events again, never the default's
    await events.forget([accountKey("zai", "work")]);
    expect((await events.raise(doc)).map((e) => e.account)).toEqual(["work"]);
  });
});

describe("where a provider reads an account's credentials (the kit)", () => {
  const claude = { field: "claudeConfigDir", env: ["CLAUDE_CONFIG_DIR"], underHome: ".claude" };

  it("vendorHome: the entry's field, else (the default account only) the variable, else the folder under HOME", () => {
    const env = { HOME: "/home/me" };
    expect(vendorHome({ entry: { id: "claude" }, env }, claude)).toBe("/home/me/.claude");
    expect(vendorHome({ entry: { id: "claude" }, env: { ...env, CLAUDE_CONFIG_DIR: "/srv/claude" } }, claude)).toBe("/srv/claude");
    const work = { id: "claude", account: "work" };
    expect(vendorHome({ entry: work, env: { ...env, CLAUDE_CONFIG_DIR: "/srv/claude" } }, claude)).toBeNull();
    expect(vendorHome({ entry: { ...work, claudeConfigDir: "~/.claude-work" }, env }, claude)).toBe("/home/me/.claude-work");
    expect(vendorHome({ entry: { ...work, claudeConfigDir: "/abs/claude" }, env }, claude)).toBe("/abs/claude");
    expect(vendorHome({ entry: { ...work, claudeConfigDir: "relative/dir" }, env }, claude)).toBeNull();
  });

  it("machineWide: a sign-in the machine has once is the default account's", async () => {
    const file = machineWide({ resolve: async () => "the-cli-token" });
    const context = (entry: ProviderConfigEntry) => ({ entry }) as unknown as Parameters<typeof file.resolve>[0];
    expect(await file.resolve(context({ id: "amp" }))).toBe("the-cli-token");
    expect(await file.resolve(context({ id: "amp", account: "work" }))).toBeNull();
  });
});
