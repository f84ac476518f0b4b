import type { AccountKey } from "../domain/account.js";
import type { MeterRole } from "../domain/meter.js";
import type { ProviderUsage } from "../domain/usage-document.js";

/** One reading of a meter as it was kept. */
export interface HistoryPoint {
  /** When it was read (ISO-8601). */
  at: string;
  usedPercent: number | null;
  used: number | null;
  limit: number | null;
  resetsAt: string | null;
  /** Counts up each time the meter's window changed (a reset, or the reset time moved): points of one window share it. */
  segment: number;
}

/** The kept readings of one meter, oldest first. */
export interface MeterHistory {
  meter: MeterRole;
  label: string;
  unit: string | null;
  windowMinutes: number | null;
  points: HistoryPoint[];
}

export interface ProviderHistory {
  provider: string;
  /** The account it was kept for; null: the default account. */
  account: string | null;
  meters: MeterHistory[];
}

/**
 * The recent readings of each account's meters, kept between runs and bounded (by count, age and
 * size). Several processes may append at once (a watch, a script, Raycast): none loses the others'.
 * It belongs to the credential and origin map it was read with, as the snapshot cache does: another
 * key starts a new history.
 */
export interface UsageHistory {
  /** Adds the meters of a fresh reading (at its `fetchedAt`) and gives the provider's history with it. */
  append(usage: ProviderUsage, credential: readonly string[]): Promise<ProviderHistory>;
  /** The provider's history; with a credential, only when it was kept for that credential (else empty). */
  read(key: AccountKey, credential?: readonly string[]): Promise<ProviderHistory>;
  remove(key: AccountKey): Promise<void>;
}
