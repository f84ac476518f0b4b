import { z } from "zod";

/** Known fields are checked; unknown ones pass through untouched at every level. */
export const ProviderEntrySchema = z.looseObject({
  id: z.string().min(1),
  enabled: z.boolean().optional(),
  apiKey: z.string().optional(),
  source: z.string().optional(),
  region: z.string().optional(),
  cookieSource: z.string().optional(),
  cookieHeader: z.string().optional(),
  workspaceID: z.string().optional(),
});

export const ConfigSchema = z.looseObject({
  version: z.number().int().optional(),
  providers: z.array(ProviderEntrySchema).default([]),
  status: z.looseObject({ enabled: z.boolean().optional(), intervalMinutes: z.number().positive().optional() }).optional(),
  timeoutSeconds: z.number().positive().optional(),
});
