import type { RefreshTiming } from "../../library/compose-core.js";
import type { ProviderUsage, UsageDocument } from "../../domain/usage-document.js";
import type { ProviderHistory } from "../../ports/usage-history.js";
import { currentWindow } from "../../presentation/history.js";
import { metersOf } from "../../presentation/severity.js";
import type { HistoryDocument } from "../commands/history.js";

/** What the loop knows of one provider: its last answer, its last answer with numbers, and its last refresh. */
export interface ServedProvider {
  latest: ProviderUsage;
  /** The last answer that had meters (the latest, or an earlier one while it fails): its series stay. */
  withMeters: ProviderUsage | null;
  refreshedAt: Date;
  fetchDurationMs: number;
  refreshes: number;
  /** The kept readings of each meter's current window, as read after the refresh (the page's sparklines); null when none are kept. */
  history: ProviderHistory | null;
}

/**
 * What `quotabar serve` serves: only what its refresh loops have brought (a request never causes an
 * upstream call). Providers are kept in the order they were asked for.
 */
export class ServeState {
  private readonly served = new Map<string, ServedProvider>();
  /** The loops run (false before they start and once one has stopped). */
  running = false;

  constructor(readonly providerIds: readonly string[]) {}

  record(usage: ProviderUsage, refresh: RefreshTiming, history: ProviderHistory | null = null): void {
    const before = this.served.get(usage.id);
    this.served.set(usage.id, {
      latest: usage,
      withMeters: metersOf(usage).length > 0 ? usage : (before?.withMeters ?? null),
      refreshedAt: new Date(refresh.startedAt.getTime() + refresh.durationMs),
      fetchDurationMs: refresh.durationMs,
      refreshes: (before?.refreshes ?? 0) + 1,
      history: history && { ...history, meters: history.meters.map((meter) => ({ ...meter, points: currentWindow(meter) })) },
    });
  }

  get(id: string): ServedProvider | undefined {
    return this.served.get(id);
  }

  /** Every provider refreshed at least once, in the asked order. */
  providers(): ServedProvider[] {
    return this.providerIds.map((id) => this.served.get(id)).filter((p): p is ServedProvider => p !== undefined);
  }

  /** The usage document of what was last fetched: every provider, or those of `only`. */
  document(now: Date, only?: readonly string[]): UsageDocument {
    const providers = this.providers()
      .map((p) => p.latest)
      .filter((usage) => !only || only.includes(usage.id));
    return { version: 1, generatedAt: now.toISOString(), providers };
  }

  /** `/history`: each provider's readings of its meters' current windows, shaped as `quotabar history --json`. */
  history(now: Date): HistoryDocument {
    const providers = this.providers().flatMap((p) => (p.history ? [p.history] : []));
    return { version: 1, generatedAt: now.toISOString(), providers };
  }
}
