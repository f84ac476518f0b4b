import type { ProviderUsage, UsageDocument } from "../../domain/usage-document.js";

/** A provider's usage as a fresh fetch gives it (z.ai by default), with the fields a test states. */
export function providerUsage(fields: Partial<ProviderUsage> = {}): ProviderUsage {
  return {
    id: "zai",
    name: "z.ai",
    ok: true,
    source: "api",
    plan: null,
    primary: null,
    secondary: null,
    tertiary: null,
    details: [],
    status: null,
    fetchedAt: null,
    stale: false,
    error: null,
    ...fields,
  };
}

/** A usage document of these providers, generated at `at`. */
export function usageDocument(at: Date, ...providers: ProviderUsage[]): UsageDocument {
  return { version: 1, generatedAt: at.toISOString(), providers };
}
