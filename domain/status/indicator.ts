import type { StatusIndicator } from "../usage-document.js";

/** Severity order of spec reference §6.3 (unknown shares maintenance's rank; we never emit it). */
export const INDICATOR_RANK: Readonly<Record<StatusIndicator, number>> = { none: 0, maintenance: 1, minor: 2, major: 3, critical: 4 };

/** The menu's words for an indicator, used when the feed gives no description. */
export const INDICATOR_LABEL: Readonly<Record<StatusIndicator, string>> = {
  none: "Operational",
  minor: "Partial outage",
  major: "Major outage",
  critical: "Critical issue",
  maintenance: "Maintenance",
};

export function isIndicator(value: string): value is StatusIndicator {
  return Object.hasOwn(INDICATOR_RANK, value);
}

/** The worse of two indicators; on a tie the first one stays. */
export function worseOf(a: StatusIndicator, b: StatusIndicator): StatusIndicator {
  return INDICATOR_RANK[b] > INDICATOR_RANK[a] ? b : a;
}
