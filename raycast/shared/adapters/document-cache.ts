import { UsageDocumentSchema, type UsageDocument } from "../../../domain/usage-document.js";
import type { SyncKeyValueStore } from "./key-value.js";

const DOCUMENT_KEY = "usage-document";

/**
 * The last usage document, so a command renders at once and then refreshes. Shared through
 * Raycast's `Cache` by the menu bar and the list: whichever fetched last, the other shows it.
 */
export class DocumentCache {
  constructor(private readonly cache: SyncKeyValueStore) {}

  read(): UsageDocument | undefined {
    const text = this.cache.get(DOCUMENT_KEY);
    if (text === undefined) return undefined;
    try {
      const parsed = UsageDocumentSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  write(document: UsageDocument): void {
    this.cache.set(DOCUMENT_KEY, JSON.stringify(document));
  }
}
