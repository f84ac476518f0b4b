import type { KeepaliveReport } from "../../domain/session-keepalive.js";
import type { UsageDocument } from "../../domain/usage-document.js";
import type { QuotabarEvent } from "../../domain/usage-events.js";
import type { ProviderListing } from "../../domain/usage-service.js";
import type { ProviderHistory } from "../../ports/usage-history.js";
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

/** One keepalive check of the document's providers that keep a web session: each 5-minute run of the menu bar does one. */
export function checkSessions(adapters: RaycastAdapters, document: UsageDocument): Promise<KeepaliveReport[]> {
  return createRaycastCore(adapters).keepalive.check(document.providers.map((p) => p.id));
}

/** "Refresh Session": a renewal now, whatever the timing (a keepalive that gave up starts afresh). */
export function refreshSession(adapters: RaycastAdapters, provider: string): Promise<KeepaliveReport> {
  return createRaycastCore(adapters).keepalive.refresh(provider);
}

/** The providers whose keepalive gave up, with what to tell the user, by id (stored state only). */
export async function sessionAlerts(adapters: RaycastAdapters): Promise<Record<string, KeepaliveReport>> {
  const core = createRaycastCore(adapters);
  const notices = await core.keepalive.notices(core.catalog.descriptors().map((d) => d.id));
  return Object.fromEntries(notices.map((report) => [report.provider, report]));
}

/** The kept readings of these providers, for the list's charts (none for a provider nothing was kept of). */
export async function loadHistory(adapters: RaycastAdapters, providers: readonly string[]): Promise<ProviderHistory[]> {
  return providers.length === 0 ? [] : createRaycastCore(adapters).history({ providers });
}

/**
 * The document's events not told before (thresholds crossed, run-outs forecast, incidents opened),
 * from now on counted as told: what was told is kept in Raycast's Cache, beside the history.
 */
export function raiseEvents(adapters: RaycastAdapters, document: UsageDocument): Promise<QuotabarEvent[]> {
  return createRaycastCore(adapters).events.raise(document);
}
