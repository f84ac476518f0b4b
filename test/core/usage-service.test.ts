import { catalogOf } from "../../domain/provider-catalog.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileTextStore } from "../../adapters/cache/file-text-store.js";
import { StoredSnapshotCache } from "../../adapters/cache/stored-snapshot-cache.js";
import { NodeProcessRunner } from "../../adapters/process/node-process-runner.js";
import { QuotabarError } from "../../domain/errors.js";
import { meter } from "../../domain/meter.js";
import { DESCRIPTORS } from "../../providers/registry.js";
import { writeCliRemedies } from "../../library/remedy-text.js";
import { UnknownProviderError, UsageService } from "../../domain/usage-service.js";
import type { ConfigStore, QuotabarConfig } from "../../ports/config-store.js";
import type { AnyFetchStrategy } from "../../ports/fetch-strategy.js";
import type { ProviderCatalog, ProviderModule } from "../../ports/provider-module.js";
import type { FetchContext } from "../../ports/fetch-context.js";
import { noBrowserAccess } from "../../adapters/browser/lazy-browser-access.js";
import { StoredKeptValues } from "../../adapters/cache/stored-kept-values.js";
import { MemorySecretStore } from "../../adapters/secrets/memory-secret-store.js";

const now = new Date("2026-11-20T10:00:00.000Z");

function strategy(
  source: AnyFetchStrategy["source"],
  behaviour: { credential?: string | null; fetch?: (ctx: FetchContext) => Promise<number>; fallbackOn?: (e: QuotabarError) => boolean },
): AnyFetchStrategy {
  return {
    source,
    credentials: { resolve: async () => (behaviour.credential === undefined ? "cred" : behaviour.credential) },
    fetch: async (_c: unknown, ctx: FetchContext) => (behaviour.fetch ? behaviour.fetch(ctx) : 42),
    toSnapshot: (percentUsed: number) => ({
      plan: "Pro",
      primary: meter("Main", { usedPercent: percentUsed }),
      secondary: null,
      tertiary: null,
      details: [],
    }),
    missingCredential: () =>
      new QuotabarError("not_configured", `no ${source} credential`, { remedies: [{ kind: "advice", text: "set it" }] }),
    ...(behaviour.fallbackOn ? { fallbackOn: behaviour.fallbackOn } : {}),
  };
}

function service(strategies: Record<string, AnyFetchStrategy[]>, config: Partial<QuotabarConfig> = {}) {
  const modules: ProviderModule[] = DESCRIPTORS.map((descriptor) => ({ descriptor, strategies: strategies[descriptor.id] ?? [] }));
  const catalog: ProviderCatalog = catalogOf(modules);
  const store: ConfigStore = {
    path: () => "/tmp/config.json",
    load: async () => ({ providers: [], ...config }),
    update: async () => ({ providers: [] }),
  };
  const cache = new StoredSnapshotCache(new FileTextStore(mkdtempSync(join(tmpdir(), "qb-cache-"))));
  const status = { statusFor: async () => null };
  const transport = { send: async () => Promise.reject(new Error("no network in this test")) };
  const processes = new NodeProcessRunner();
  const deps = {
    catalog,
    config: store,
    cache,
    clock: { now: () => now },
    env: {},
    status,
    transport,
    processes,
    browsers: noBrowserAccess(),
    writeRemedies: writeCliRemedies,
    kept: new StoredKeptValues(new FileTextStore(mkdtempSync(join(tmpdir(), "qb-kept-"))), new MemorySecretStore(), { now: () => now }),
  };
  return { svc: new UsageService(deps), cache };
}

const never = () => new Promise<number>(() => undefined);

describe("UsageService", () => {
  it("records which strategy answered and falls back in order", async () => {
    const { svc } = service({
      kilo: [
        strategy("api", {
          fetch: async () => Promise.reject(new QuotabarError("unauthorized", "401")),
          fallbackOn: (e) => e.code === "unauthorized",
        }),
        strategy("cli", { fetch: async () => 12 }),
      ],
    });
    const doc = await svc.usage({ providers: ["kilo"] });
    expect(doc.providers[0]).toMatchObject({ id: "kilo", ok: true, source: "cli", plan: "Pro", fetchedAt: now.toISOString() });
    expect(doc.providers[0]!.primary?.usedPercent).toBe(12);
  });

  it("surfaces the error of a strategy that does not ask to fall back", async () => {
    const { svc } = service({
      kilo: [strategy("api", { fetch: async () => Promise.reject(new QuotabarError("forbidden", "403")) }), strategy("cli", {})],
    });
    const [usage] = (await svc.usage({ providers: ["kilo"] })).providers;
    expect(usage).toMatchObject({ ok: false, source: null, error: { code: "forbidden", message: "403" } });
  });

  it("skips strategies without credentials and reports the first one's missing-credential error", async () => {
    const { svc } = service({ kilo: [strategy("api", { credential: null }), strategy("cli", { credential: null })] });
    const [usage] = (await svc.usage({ providers: ["kilo"] })).providers;
    expect(usage!.error).toEqual({ code: "not_configured", message: "no api credential", hint: "set it" });
  });

  it("runs only the strategies of a forced source mode", async () => {
    const { svc } = service({ kilo: [strategy("api", { fetch: async () => 1 }), strategy("cli", { fetch: async () => 2 })] });
    const [usage] = (await svc.usage({ providers: ["kilo"], source: "cli" })).providers;
    expect(usage).toMatchObject({ source: "cli", primary: { usedPercent: 2 } });
  });

  it("times out a hanging provider without delaying the others", async () => {
    const { svc } = service({ zai: [strategy("api", { fetch: never })], warp: [strategy("api", { fetch: async () => 5 })] });
    const started = Date.now();
    const doc = await svc.usage({ providers: ["zai", "warp"], timeoutMs: 150 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(doc.providers.map((p) => p.id)).toEqual(["zai", "warp"]);
    expect(doc.providers[0]!.error).toMatchObject({ code: "timeout", message: "z.ai did not answer within 0.2 s" });
    expect(doc.providers[1]).toMatchObject({ ok: true, primary: { usedPercent: 5 } });
  });

  it("aborts the provider's signal when its time is up", async () => {
    let aborted = false;
    const { svc } = service({
      zai: [strategy("api", { fetch: (ctx) => new Promise<number>(() => ctx.signal.addEventListener("abort", () => (aborted = true))) })],
    });
    await svc.usage({ providers: ["zai"], timeoutMs: 50 });
    expect(aborted).toBe(true);
  });

  it("serves the last good snapshot as stale with the error when a fetch fails", async () => {
    let fail = false;
    const { svc } = service({
      warp: [strategy("api", { fetch: async () => (fail ? Promise.reject(new QuotabarError("upstream", "HTTP 500")) : 64) })],
    });
    const first = (await svc.usage({ providers: ["warp"] })).providers[0]!;
    expect(first.stale).toBe(false);
    fail = true;
    const second = (await svc.usage({ providers: ["warp"] })).providers[0]!;
    expect(second).toMatchObject({
      ok: false,
      stale: true,
      primary: { usedPercent: 64 },
      fetchedAt: first.fetchedAt,
      error: { code: "upstream" },
    });
  });

  it("turns a thrown non-taxonomy error into an upstream error instead of an exception", async () => {
    const { svc } = service({ warp: [strategy("api", { fetch: async () => Promise.reject(new TypeError("boom")) })] });
    const [usage] = (await svc.usage({ providers: ["warp"] })).providers;
    expect(usage!.error).toMatchObject({ code: "upstream", message: "boom" });
  });

  it("fails one provider whose policy produced an invalid meter, not the document", async () => {
    const bad: AnyFetchStrategy = {
      ...strategy("api", {}),
      toSnapshot: () => ({ plan: null, primary: { ...meter("x"), resetsAt: "soon" }, secondary: null, tertiary: null, details: [] }),
    };
    const { svc } = service({ warp: [bad], zai: [strategy("api", {})] });
    const doc = await svc.usage({ providers: ["warp", "zai"] });
    expect(doc.providers[0]!.error?.code).toBe("parse");
    expect(doc.providers[0]!.error?.message).toContain("primary.resetsAt");
    expect(doc.providers[1]!.ok).toBe(true);
  });

  it("reports providers that are not implemented yet as unsupported", async () => {
    const { svc } = service({});
    const [usage] = (await svc.usage({ providers: ["kiro"] })).providers;
    expect(usage!.error?.code).toBe("unsupported_platform");
  });

  it("rejects unknown ids and lists the valid ones", async () => {
    const { svc } = service({});
    await expect(svc.usage({ providers: ["nope"] })).rejects.toBeInstanceOf(UnknownProviderError);
    await expect(svc.usage({ providers: ["nope"] })).rejects.toMatchObject({
      remedies: [{ kind: "advice", text: expect.stringContaining("copilot") }],
    });
  });

  it("selects enabled config entries in config order, then detected providers; never kimik2 automatically", async () => {
    const { svc } = service(
      {
        warp: [strategy("api", {})],
        zai: [strategy("api", {})],
        openrouter: [strategy("api", { credential: null })],
        kimik2: [strategy("api", {})],
      },
      { providers: [{ id: "zai" }, { id: "copilot", enabled: false }, { id: "openrouter", enabled: true }] },
    );
    const doc = await svc.usage();
    expect(doc.providers.map((p) => p.id)).toEqual(["zai", "openrouter", "warp"]);
  });

  it("uses config timeoutSeconds when no timeout is given", async () => {
    const { svc } = service({ zai: [strategy("api", { fetch: never })] }, { timeoutSeconds: 0.1 });
    const [usage] = (await svc.usage({ providers: ["zai"] })).providers;
    expect(usage!.error?.message).toBe("z.ai did not answer within 0.1 s");
  });

  it("fails a provider whose numbers no real quota has, naming the field, instead of drawing a meter", async () => {
    const impossible = [
      { fields: { used: -600, limit: 300 }, says: "primary.used = -600" },
      { fields: { used: 5, limit: 0 }, says: "primary.used = 5 of a limit of 0" },
      { fields: { used: 1, limit: 10, resetsAt: "1970-01-01T00:00:00.000Z" }, says: "primary.resetsAt = 1970-01-01T00:00:00.000Z" },
    ];
    for (const { fields, says } of impossible) {
      const odd = {
        ...strategy("api", {}),
        toSnapshot: () => ({
          plan: null,
          primary: meter("Main", { usedPercent: 10, ...fields }),
          secondary: null,
          tertiary: null,
          details: [],
        }),
      };
      const [usage] = (await service({ zai: [odd] }).svc.usage({ providers: ["zai"] })).providers;
      expect(usage).toMatchObject({
        ok: false,
        primary: null,
        error: { code: "parse", message: `z.ai sent an impossible value: ${says}` },
      });
    }
  });
});
