import { usePromise } from "@raycast/utils";
import { useState } from "react";
import type { UsageDocument } from "../../domain/usage-document.js";
import { documentCache, raycastAdapters } from "./raycast-runtime.js";
import { fetchUsage } from "./usage.js";

const load = () => fetchUsage(raycastAdapters(), documentCache);

/**
 * The last document at once (shared by the menu bar and the list through Raycast's Cache), then a
 * fresh one. `execute` lets the menu bar skip a fetch when the cached document is recent.
 */
export function useUsage(options: { execute?: (cached: UsageDocument | undefined) => boolean; onError?: (error: Error) => void } = {}) {
  const [cached] = useState(() => documentCache.read());
  const [execute] = useState(() => options.execute?.(cached) ?? true);
  const { data, isLoading, revalidate, error } = usePromise(load, [], {
    execute,
    ...(options.onError ? { onError: options.onError } : {}),
  });
  return { document: data ?? cached, isLoading, revalidate, error };
}
