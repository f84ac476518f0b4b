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
  type Detail,
  type ProviderStatus,
  type UsageError,
  type ErrorCode,
} from "./domain/usage-document.js";
export { PROVIDER_IDS, type ProviderId, type ProviderDescriptor } from "./domain/providers/descriptor.js";
export { DESCRIPTORS } from "./domain/providers/catalog.js";
export { VERSION } from "./domain/version.js";
