import type { Clock } from "../ports/clock.js";
import type { ConfigStore } from "../ports/config-store.js";
import type { ProviderCatalog } from "../ports/provider-module.js";
import type { StatusCache, StatusCacheEntry } from "../ports/status-cache.js";
import type { StatusFeed, StatusReport, StatusReporter } from "../ports/status-feed.js";
import { asQuotabarError } from "./errors.js";
import { statusPageUrl, type ProviderDescriptor } from "./descriptor.js";
import type { RemedyWriter } from "./remedy.js";
import { cleanStrings } from "./untrusted-text.js";
import type { ProviderStatus } from "./usage-document.js";

/** Spec section 8: status pages are polled every 5 minutes unless the config says otherwise. */
export const DEFAULT_STATUS_INTERVAL_MINUTES = 5;

/**
 * Status pages, polled at most once per interval across runs: the last answer (or failure) is
 * kept in the StatusCache, a fresh one is served from there without a request, and a failed
 * poll keeps the previous status. With status checks off nothing is ever requested.
 */
export interface StatusServiceDeps {
  catalog: ProviderCatalog;
  config: ConfigStore;
  feed: StatusFeed;
  cache: StatusCache;
  clock: Clock;
  writeRemedies: RemedyWriter;
}

export class StatusService implements StatusReporter {
  private readonly inFlight = new Map<string, Promise<StatusReport>>();
  private readonly catalog: ProviderCatalog;
  private readonly config: ConfigStore;
  private readonly feed: StatusFeed;
  private readonly cache: StatusCache;
  private readonly clock: Clock;
  private readonly writeRemedies: RemedyWriter;

  constructor(deps: StatusServiceDeps) {
    ({
      catalog: this.catalog,
      config: this.config,
      feed: this.feed,
      cache: this.cache,
      clock: this.clock,
      writeRemedies: this.writeRemedies,
    } = deps);
  }

  /** Forget the last polls of these providers' status pages. */
  async forget(ids: readonly string[]): Promise<void> {
    await Promise.all(ids.map((id) => this.cache.remove(id)));
  }

  async settings(): Promise<{ enabled: boolean; intervalMinutes: number }> {
    const status = (await this.config.load()).status;
    const interval = status?.intervalMinutes;
    return {
      enabled: status?.enabled !== false,
      intervalMinutes:
        typeof interval === "number" && Number.isFinite(interval) && interval > 0 ? interval : DEFAULT_STATUS_INTERVAL_MINUTES,
    };
  }

  async statusFor(providerId: string, options: { signal?: AbortSignal } = {}): Promise<ProviderStatus | null> {
    if (!this.catalog.descriptor(providerId)) return null;
    return (await this.report(providerId, options)).status;
  }

  async report(providerId: string, options: { signal?: AbortSignal } = {}): Promise<StatusReport> {
    const descriptor = this.descriptor(providerId);
    const source = descriptor.status;
    const base: StatusReport = {
      id: descriptor.id,
      name: descriptor.name,
      kind: source.kind === "polled" ? source.feed : source.kind,
      url: statusPageUrl(descriptor),
      status: null,
      fetchedAt: null,
      checkedAt: null,
      cached: false,
      error: null,
    };
    if (source.kind !== "polled") return base;
    const settings = await this.settings();
    if (!settings.enabled) return base;
    // one poll per provider at a time, however many callers ask
    let pending = this.inFlight.get(providerId);
    if (!pending) {
      pending = this.poll(providerId, base, settings.intervalMinutes, options.signal).finally(() => this.inFlight.delete(providerId));
      this.inFlight.set(providerId, pending);
    }
    return pending;
  }

  private async poll(id: string, base: StatusReport, intervalMinutes: number, signal: AbortSignal | undefined): Promise<StatusReport> {
    const source = this.descriptor(id).status;
    if (source.kind !== "polled") return base;
    const now = this.clock.now();
    const previous = await this.cache.read(id).catch(() => null);
    const usable = previous !== null && previous.feedUrl === source.url ? previous : null;
    if (usable && isFresh(usable.checkedAt, now, intervalMinutes)) return { ...base, ...fromEntry(usable), cached: true };
    let entry: StatusCacheEntry;
    try {
      const status = cleanStrings(await this.feed.read(source, signal ? { signal } : {}), []);
      entry = { feedUrl: source.url, checkedAt: now.toISOString(), fetchedAt: now.toISOString(), status, error: null };
    } catch (thrown) {
      // the caller gave up (its time budget ran out): not the page's fault, so nothing is remembered
      if (signal?.aborted)
        return { ...base, ...(usable ? fromEntry(usable) : {}), error: asQuotabarError(thrown).toUsageError(this.writeRemedies) };
      entry = {
        feedUrl: source.url,
        checkedAt: now.toISOString(),
        fetchedAt: usable?.fetchedAt ?? null,
        status: usable?.status ?? null,
        error: asQuotabarError(thrown).toUsageError(this.writeRemedies),
      };
    }
    await this.cache.write(id, entry).catch(() => undefined);
    return { ...base, ...fromEntry(entry), cached: false };
  }

  private descriptor(id: string): ProviderDescriptor {
    const descriptor = this.catalog.descriptor(id);
    if (!descriptor) throw new Error(`unknown provider ${id}`);
    return descriptor;
  }
}

function fromEntry(entry: StatusCacheEntry): Pick<StatusReport, "status" | "fetchedAt" | "checkedAt" | "error"> {
  return { status: entry.status, fetchedAt: entry.fetchedAt, checkedAt: entry.checkedAt, error: entry.error };
}

/** Asked less than an interval ago (a time in the future, from a clock that jumped back, is not fresh). */
function isFresh(checkedAt: string, now: Date, intervalMinutes: number): boolean {
  const age = now.getTime() - new Date(checkedAt).getTime();
  return Number.isFinite(age) && age >= 0 && age < intervalMinutes * 60_000;
}
