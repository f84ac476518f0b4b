import { usePromise } from "@raycast/utils";
import { useState } from "react";
import type { UsageDocument } from "../../domain/usage-document.js";
import { documentCache, raycastAdapters } from "./raycast-runtime.js";
import type { RaycastAdapters } from "./raycast-core.js";
import { checkSessions, fetchUsage } from "./usage.js";

/** What runs after a fetch, with the fresh document (a keepalive check, telling events); its failure never fails the fetch. */
export type AfterFetch = (adapters: RaycastAdapters, document: UsageDocument) => Promise<unknown>;

const checkTheSessions: AfterFetch = (adapters, document) => checkSessions(adapters, document);

/** The refresh, then each step of `after` in turn. */
function loaderOf(after: readonly AfterFetch[]): () => Promise<UsageDocument> {
  return async () => {
    const adapters = raycastAdapters();
    const document = await fetchUsage(adapters, documentCache);
    for (const step of after) await step(adapters, document).catch(() => undefined);
    return document;
  };
}

/**
 * The last document at once (shared by the menu bar and the list through Raycast's Cache), then a
 * fresh one. `execute` lets the menu bar skip a fetch when the cached document is recent;
 * `keepSessions` adds a keepalive check after the fetch (the menu bar's background runs), and
 * `afterFetch` what else follows a fetch (the menu bar tells the events it raises).
 */
export function useUsage(
  options: {
    execute?: (cached: UsageDocument | undefined) => boolean;
    onError?: (error: Error) => void;
    keepSessions?: boolean;
    afterFetch?: AfterFetch;
  } = {},
) {
  const [cached] = useState(() => documentCache.read());
  const [execute] = useState(() => options.execute?.(cached) ?? true);
  const [loader] = useState(() =>
    // events first: a toast says it at once, whatever the session check takes
    loaderOf([...(options.afterFetch ? [options.afterFetch] : []), ...(options.keepSessions ? [checkTheSessions] : [])]),
  );
  const { data, isLoading, revalidate, error } = usePromise(loader, [], {
    execute,
    ...(options.onError ? { onError: options.onError } : {}),
  });
  return { document: data ?? cached, isLoading, revalidate, error };
}
