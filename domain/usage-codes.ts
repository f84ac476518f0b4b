/**
 * The document's closed vocabularies, apart from its zod schema (usage-document.ts) so that code
 * reading a kept document without zod (the status bar's light path) shares them.
 */

/** The error codes of contract section 3; every failure a user sees carries one. */
export const ERROR_CODES = [
  "not_configured",
  "unauthorized",
  "forbidden",
  "expired",
  "rate_limited",
  "network",
  "timeout",
  "upstream",
  "parse",
  "unsupported_platform",
  "not_installed",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const STATUS_INDICATORS = ["none", "minor", "major", "critical", "maintenance"] as const;
export type StatusIndicator = (typeof STATUS_INDICATORS)[number];
