import * as z from "../../domain/zod.js";
import { ProviderUsageSchema } from "../../domain/usage-document.js";

/** A kept snapshot as stored; loaded when one is read, so a run that reads none never builds a schema. */
export const SnapshotEntrySchema = z.object({ scope: z.string(), usage: ProviderUsageSchema });
