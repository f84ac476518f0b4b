/** The quotabar library: import it, call createQuotabar(), get the usage document. No side effects on import. */
export { createQuotabar, type Quotabar, type QuotabarOptions } from "./library/create-quotabar.js";
export {
  UsageDocumentSchema,
  ProviderUsageSchema,
  MeterSchema,
  ERROR_CODES,
  type UsageDocument,
  type ProviderUsage,
  type Meter,
  type Pace,
  type Detail,
  type ProviderStatus,
  type UsageError,
  type ErrorCode,
} from "./domain/usage-document.js";
export type { ProviderDescriptor } from "./domain/descriptor.js";
export type { ProviderListing } from "./domain/usage-service.js";
export type { AccountKey } from "./domain/account.js";
export { DESCRIPTORS, PROVIDER_IDS } from "./providers/registry.js";
export type { ProviderId } from "./providers/registry.js";
export { VERSION } from "./domain/version.js";
export type { WatchRequest } from "./library/create-quotabar.js";
export type { KeepaliveReport } from "./domain/session-keepalive.js";
export type { QuotabarEvent, ThresholdEvent, RunOutEvent, IncidentEvent } from "./domain/usage-events.js";
export type { ProviderHistory, MeterHistory, HistoryPoint } from "./ports/usage-history.js";
