import { UsageService } from "../../domain/usage-service.js";
import type { UsageDocument } from "../../domain/usage-document.js";
import type { DocumentCache } from "./adapters/document-cache.js";
import { createRaycastContainer, type RaycastAdapters } from "./raycast-container.js";

/**
 * Fetch the usage document of the enabled providers (with status pages unless switched off) and
 * keep it as the last document, for the next command that opens.
 */
export async function fetchUsage(adapters: RaycastAdapters, documents: DocumentCache): Promise<UsageDocument> {
  const service = createRaycastContainer(adapters).resolve(UsageService);
  const document = await service.usage({ status: adapters.preferences.statusChecks !== false });
  documents.write(document);
  return document;
}
