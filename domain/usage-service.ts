import "reflect-metadata";
import { inject, injectable } from "tsyringe";
import type { Clock } from "../ports/clock.js";
import type { ConfigStore, ProviderConfigEntry, QuotabarConfig } from "../ports/config-store.js";
import type { Environment } from "../ports/environment.js";
import type { FetchContext } from "../ports/fetch-context.js";
import type { ProviderPlugin, ProviderRegistry } from "../ports/fetch-strategy.js";
import type { SnapshotCache } from "../ports/snapshot-cache.js";
import type { StatusReader } from "../ports/status-feed.js";
import { TOKENS } from "../ports/tokens.js";
import { entryOf } from "./config-entry.js";
import { asQuotabarError, QuotabarError } from "./errors.js";
import { isProviderId, PROVIDER_IDS, type ProviderId, type SourceKind } from "./providers/descriptor.js";
import { ProviderUsageSchema, type ProviderStatus, type ProviderUsage, type Snapshot, type UsageDocument } from "./usage-document.js";

export const DEFAULT_TIMEOUT_SECONDS = 15;

export interface UsageRequest {
  /** Provider ids; default: the enabled ones (config), else every provider whose credentials are found. */
  providers?: readonly string[];
  /** Per-provider budget; default: config `timeoutSeconds`, else 15 s. */
  timeoutMs?: number;
  /** Add each provider's status page to the document. */
  status?: boolean;
  /** Force a source mode (`--source`). */
  source?: string;
}

export class UnknownProviderError extends QuotabarError {
  override name = "UnknownProviderError";
  constructor(readonly unknownIds: readonly string[]) {
    super("not_configured", `Unknown provider id: ${unknownIds.join(", ")}`, { hint: `Valid ids: ${PROVIDER_IDS.join(", ")}` });
  }
}

/**
 * The core use case: fetch the requested providers concurrently, each under its own timeout,
 * trying its strategies in order, and turn every outcome (even a failure) into document data.
 */
@injectable()
export class UsageService {
  constructor(
    @inject(TOKENS.ProviderRegistry) private readonly registry: ProviderRegistry,
    @inject(TOKENS.ConfigStore) private readonly config: ConfigStore,
    @inject(TOKENS.SnapshotCache) private readonly cache: SnapshotCache,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Environment) private readonly env: Environment,
    @inject(TOKENS.StatusService) private readonly status: StatusReader,
  ) {}

  async usage(request: UsageRequest = {}): Promise<UsageDocument> {
    const config = await this.config.load();
    const ids = await this.select(config, request.providers);
    const timeoutMs = request.timeoutMs ?? (config.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
    const providers = await Promise.all(ids.map((id) => this.fetchProvider(this.plugin(id), entryOf(config, id), timeoutMs, request)));
    return { version: 1, generatedAt: this.clock.now().toISOString(), providers };
  }

  /** Requested ids in the order asked; otherwise config order, then catalog order. */
  async select(config: QuotabarConfig, requested?: readonly string[]): Promise<ProviderId[]> {
    if (requested && requested.length > 0) {
      const unknown = requested.filter((id) => !isProviderId(id));
      if (unknown.length > 0) throw new UnknownProviderError(unknown);
      return [...new Set(requested as ProviderId[])];
    }
    const configured = config.providers.map((e) => e.id).filter(isProviderId);
    const ordered = [...new Set([...configured, ...this.registry.all().map((p) => p.descriptor.id)])];
    const enabled = await Promise.all(ordered.map((id) => this.isEnabled(this.plugin(id), entryOf(config, id))));
    return ordered.filter((_, i) => enabled[i]);
  }

  /** An explicit `enabled` in the config decides; otherwise a provider is on when its credentials are found. */
  async isEnabled(plugin: ProviderPlugin, entry: ProviderConfigEntry): Promise<boolean> {
    if (typeof entry.enabled === "boolean") return entry.enabled;
    if (!plugin.descriptor.enabledByDefault) return false;
    return this.credentialsFound(plugin, entry);
  }

  /** Whether any strategy finds a credential locally (no network). */
  async credentialsFound(plugin: ProviderPlugin, entry: ProviderConfigEntry): Promise<boolean> {
    const context = this.context(entry, new AbortController().signal, 5_000, undefined);
    for (const strategy of this.applicable(plugin, context.sourceMode)) {
      try {
        if ((await strategy.credentials.resolve(context)) !== null) return true;
      } catch {
        // a credential source that cannot even look counts as "not found"
      }
    }
    return false;
  }

  private async fetchProvider(
    plugin: ProviderPlugin,
    entry: ProviderConfigEntry,
    timeoutMs: number,
    request: UsageRequest,
  ): Promise<ProviderUsage> {
    const { descriptor } = plugin;
    const controller = new AbortController();
    // the status page gets the provider's time budget too, so a slow one never holds the usage back
    const statusPromise = request.status ? this.readStatus(descriptor.id, controller.signal) : Promise.resolve(null);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const seconds = Math.round(timeoutMs / 100) / 10;
        reject(
          new QuotabarError("timeout", `${descriptor.name} did not answer within ${seconds} s`, {
            hint: "The service may be slow or unreachable; try again, or raise --timeout (config timeoutSeconds).",
          }),
        );
        controller.abort();
      }, timeoutMs);
    });
    try {
      const { snapshot, source } = await Promise.race([
        this.runStrategies(plugin, entry, controller.signal, timeoutMs, request.source),
        timeout,
      ]);
      const usage = this.validated({
        ...base(plugin),
        ok: true,
        source,
        ...snapshot,
        fetchedAt: this.clock.now().toISOString(),
        status: await statusPromise,
      });
      if (usage.ok) await this.cache.write(usage).catch(() => undefined);
      return usage;
    } catch (thrown) {
      return this.failure(plugin, asQuotabarError(thrown), await statusPromise);
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  }

  private async runStrategies(
    plugin: ProviderPlugin,
    entry: ProviderConfigEntry,
    signal: AbortSignal,
    timeoutMs: number,
    sourceOverride: string | undefined,
  ): Promise<{ snapshot: Snapshot; source: SourceKind }> {
    const context = this.context(entry, signal, timeoutMs, sourceOverride);
    const strategies = this.applicable(plugin, context.sourceMode);
    if (plugin.strategies.length === 0) {
      throw new QuotabarError("unsupported_platform", `${plugin.descriptor.name} is not supported by this version of quotabar yet`, {
        hint: "Watch the changelog; the provider is listed so your config stays valid.",
      });
    }
    if (strategies.length === 0) {
      throw new QuotabarError("not_configured", `${plugin.descriptor.name} has no source "${context.sourceMode}"`, {
        hint: `Use one of: auto, ${plugin.descriptor.strategies.join(", ")}.`,
      });
    }
    let lastError: QuotabarError | null = null;
    for (const [index, strategy] of strategies.entries()) {
      const credential = await strategy.credentials.resolve(context);
      if (credential === null) continue;
      try {
        const reading = await strategy.usage.fetch(credential, context);
        return { snapshot: strategy.toSnapshot(reading, this.clock.now()), source: strategy.source };
      } catch (thrown) {
        const error = asQuotabarError(thrown);
        const isLast = index === strategies.length - 1;
        if (isLast || !strategy.fallbackOn?.(error, context)) throw error;
        lastError = error;
      }
    }
    throw lastError ?? (strategies[0] as (typeof strategies)[number]).missingCredential(context);
  }

  private applicable(plugin: ProviderPlugin, sourceMode: string) {
    return plugin.strategies.filter((s) => (s.appliesTo ? s.appliesTo(sourceMode) : sourceMode === "auto" || sourceMode === s.source));
  }

  private context(entry: ProviderConfigEntry, signal: AbortSignal, timeoutMs: number, sourceOverride: string | undefined): FetchContext {
    const fromEntry = typeof entry.source === "string" && entry.source.trim() !== "" ? entry.source.trim() : "auto";
    return {
      env: this.env,
      entry,
      signal,
      now: () => this.clock.now(),
      timeoutMs,
      sourceMode: sourceOverride ?? fromEntry,
      configPath: this.config.path(),
    };
  }

  /** A failed fetch serves the last good snapshot, marked stale, when there is one. */
  private async failure(plugin: ProviderPlugin, error: QuotabarError, status: ProviderStatus | null): Promise<ProviderUsage> {
    const cached = await this.cache.read(plugin.descriptor.id).catch(() => null);
    const usageError = error.toUsageError();
    if (cached) return { ...cached, ...base(plugin), ok: false, stale: true, error: usageError, status: status ?? cached.status };
    return {
      ...base(plugin),
      ok: false,
      source: null,
      plan: null,
      primary: null,
      secondary: null,
      tertiary: null,
      details: [],
      status,
      fetchedAt: null,
      stale: false,
      error: usageError,
    };
  }

  private async readStatus(id: ProviderId, signal: AbortSignal): Promise<ProviderStatus | null> {
    try {
      return await this.status.statusFor(id, { signal });
    } catch {
      return null; // a failing status page never fails the usage fetch
    }
  }

  /** A policy that produced something outside the contract fails that provider, not the document. */
  private validated(usage: ProviderUsage): ProviderUsage {
    const result = ProviderUsageSchema.safeParse(usage);
    if (result.success) return result.data;
    const issue = result.error.issues[0];
    throw new QuotabarError("parse", `${usage.name} produced an invalid value at ${issue?.path.join(".") ?? "?"}: ${issue?.message ?? ""}`);
  }

  private plugin(id: ProviderId): ProviderPlugin {
    const plugin = this.registry.get(id);
    if (!plugin) throw new UnknownProviderError([id]);
    return plugin;
  }
}

function base(plugin: ProviderPlugin) {
  return { id: plugin.descriptor.id, name: plugin.descriptor.name, stale: false, error: null };
}
