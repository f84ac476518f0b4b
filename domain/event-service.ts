import { keyOfUsage, type AccountKey } from "./account.js";
import type { Clock } from "../ports/clock.js";
import type { ConfigStore } from "../ports/config-store.js";
import type { NotifiedStateStore } from "../ports/notified-state.js";
import { newEvents, notifySettings, type QuotabarEvent } from "./usage-events.js";
import type { UsageDocument } from "./usage-document.js";

export interface EventServiceDeps {
  config: ConfigStore;
  clock: Clock;
  notified: NotifiedStateStore;
}

/**
 * Raises the events of a refreshed document, each once: what is new is decided and remembered in
 * one step per provider (under the state store's lock), so two processes refreshing at once never
 * both tell it. A driver delivers what it is given (desktop, a command, a HUD).
 */
export class EventService {
  constructor(private readonly deps: EventServiceDeps) {}

  /** The document's events not told before, in provider order; from now on they count as told. */
  async raise(document: UsageDocument): Promise<QuotabarEvent[]> {
    const config = await this.deps.config.load();
    const now = this.deps.clock.now();
    const raised = await Promise.all(
      document.providers.map(async (usage) => {
        let events: QuotabarEvent[] = [];
        await this.deps.notified.update(keyOfUsage(usage), (state) => {
          const next = newEvents(usage, state, notifySettings(config, keyOfUsage(usage)), now);
          events = next.events;
          return next.state;
        });
        return events;
      }),
    );
    return raised.flat();
  }

  /** Forget what was told for these accounts (`quotabar cache clear`). */
  async forget(keys: readonly AccountKey[]): Promise<void> {
    await Promise.all(keys.map((key) => this.deps.notified.remove(key)));
  }
}
