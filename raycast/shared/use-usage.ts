import { usePromise } from "@raycast/utils";
import { useState } from "react";
import type { UsageDocument } from "../../domain/usage-document.js";
import { documentCache, raycastAdapters } from "./raycast-runtime.js";
import { checkSessions, fetchUsage } from "./usage.js";

const load = () => fetchUsage(raycastAdapters(), documentCache);

/** The refresh, then one keepalive check of its providers; a failed check never fails the refresh. */
async function loadKeepingSessions(): Promise<UsageDocument> {
  const adapters = raycastAdapters();
  const document = await fetchUsage(adapters, documentCache);
  await checkSessions(adapters, document).catch(() => undefined);
  return document;
}

/**
 * The last document at once (shared by the menu bar and the list through Raycast's Cache), then a
 * fresh one. `execute` lets the menu bar skip a fetch when the cached document is recent;
 * `keepSessions` adds a keepalive check after the fetch (the menu bar's background runs).
 */
export function useUsage(
  options: { execute?: (cached: UsageDocument | undefined) => boolean; onError?: (error: Error) => void; keepSessions?: boolean } = {},
) {
  const [cached] = useState(() => documentCache.read());
  const [execute] = useState(() => options.execute?.(cached) ?? true);
  const [loader] = useState(() => (options.keepSessions ? loadKeepingSessions : load));
  const { data, isLoading, revalidate, error } = usePromise(loader, [], {
    execute,
    ...(options.onError ? { onError: options.onError } : {}),
  });
  return { document: data ?? cached, isLoading, revalidate, error };
}
