import { z } from "zod";
import { ProviderStatusSchema, UsageErrorSchema } from "../../domain/usage-document.js";

/** A status poll as stored; loaded when one is read. */
export const StatusEntrySchema = z.object({
  feedUrl: z.string(),
  /** Where the request really went (after QUOTABAR_ORIGIN_MAP). */
  target: z.string(),
  checkedAt: z.iso.datetime({ offset: true }),
  fetchedAt: z.iso.datetime({ offset: true }).nullable(),
  status: ProviderStatusSchema.nullable(),
  error: UsageErrorSchema.nullable(),
});
