import * as z from "../../domain/zod.js";
import { ProviderStatusSchema, UsageErrorSchema } from "../../domain/usage-document.js";

/** A status poll as stored; loaded when one is read. */
export const StatusEntrySchema = z.object({
  feedUrl: z.string(),
  /** Where the request really went (after QUOTABAR_ORIGIN_MAP). */
  target: z.string(),
  checkedAt: z.iso.datetime({ offset: true }),
  fetchedAt: z.nullable(z.iso.datetime({ offset: true })),
  status: z.nullable(ProviderStatusSchema),
  error: z.nullable(UsageErrorSchema),
});
