import type { UsageDocument } from "../../domain/usage-document.js";
import type { ProviderListing } from "../../domain/usage-service.js";
import type { DocumentCache } from "./adapters/document-cache.js";
import { createRaycastCore, type RaycastAdapters } from "./raycast-core.js";

/**
 * Fetch the usage document of the enabled providers (with status pages unless switched off) and
 * keep it as the last document, for the next command that opens.
 */
export async function fetchUsage(adapters: RaycastAdapters, documents: DocumentCache): Promise<UsageDocument> {
  const document = await createRaycastCore(adapters).usage.usage({ status: adapters.preferences.statusChecks !== false });
  documents.write(document);
  return document;
}

/** Every provider with whether it is set up here (no network): the list's "Not Set Up" rows, as `quotabar providers` lists them. */
export function listProviders(adapters: RaycastAdapters): Promise<ProviderListing[]> {
  return createRaycastCore(adapters).usage.listProviders();
}
