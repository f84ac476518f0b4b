import type { AccountKey } from "../domain/account.js";
import type { MeterRole } from "../domain/meter.js";

/** What was already told about one meter's window. */
export interface NotifiedMeter {
  /** The window's reset time, as last seen (null: a meter without one). */
  resetsAt: string | null;
  /** The thresholds already crossed in it. */
  thresholds: number[];
  /** Whether its run-out forecast was told. */
  runOut: boolean;
}

/** What was already told about a provider: per meter, and the status-page incidents open when last seen. */
export interface NotifiedState {
  meters: Partial<Record<MeterRole, NotifiedMeter>>;
  incidents: string[];
}

/**
 * Kept beside the usage history, so that a restart, a second process or another driver sharing the
 * store never tells an event twice. `update` reads, changes and writes one provider's state as one
 * step (writers that race queue): the change decides what is new from what it is given.
 */
export interface NotifiedStateStore {
  update(key: AccountKey, change: (state: NotifiedState | null) => NotifiedState): Promise<void>;
  remove(key: AccountKey): Promise<void>;
}
