import { lazyBrowserAccess, noBrowserAccess } from "../adapters/browser/lazy-browser-access.js";
import type { CookieExplanation } from "../adapters/browser/cookie-explanation.js";
import type { SafeStorage } from "../adapters/browser/chromium/safe-storage.js";
import type { ChromiumLocalStorageReader } from "../adapters/browser/leveldb/chromium-local-storage.js";
import { mapUrl, type OriginMap } from "../adapters/http/origin-map.js";
import type { Sqlite } from "../adapters/sqlite/sqlite.js";
import { StoredKeptValues } from "../adapters/cache/stored-kept-values.js";
import { StoredSnapshotCache } from "../adapters/cache/stored-snapshot-cache.js";
import { StoredNotifiedState } from "../adapters/cache/stored-notified-state.js";
import { StoredStatusCache } from "../adapters/cache/stored-status-cache.js";
import { StoredUsageHistory } from "../adapters/cache/stored-usage-history.js";
import { createStatusFeed } from "../adapters/http/status-feeds.js";
import { accountRef, parseAccountRef, type AccountKey } from "../domain/account.js";
import { browsersForAccount } from "../domain/account-browsers.js";
import { entryOf, namedAccountsOf } from "../domain/config-entry.js";
import { EventService } from "../domain/event-service.js";
import type { RemedyWriter } from "../domain/remedy.js";
import { KEEPALIVE, SessionKeepalive, type KeepaliveReport } from "../domain/session-keepalive.js";
import { StatusService } from "../domain/status-service.js";
import type { UsageDocument } from "../domain/usage-document.js";
import type { QuotabarEvent } from "../domain/usage-events.js";
import { UnknownProviderError } from "../domain/unknown-provider.js";
import { UsageService, type UsageRequest } from "../domain/usage-service.js";
import { PROVIDER_CATALOG } from "../providers/registry.js";
import type { BrowserAccess, SecretStore } from "../ports/browser-credentials.js";
import type { Clock } from "../ports/clock.js";
import type { ConfigStore, QuotabarConfig } from "../ports/config-store.js";
import type { DeviceFlow } from "../ports/device-flow.js";
import type { Environment } from "../ports/environment.js";
import type { HttpTransport } from "../ports/http-client.js";
import type { ProcessRunner } from "../ports/process-runner.js";
import type { ProviderCatalog } from "../ports/provider-module.js";
import type { StatusReader, StatusReporter } from "../ports/status-feed.js";
import type { TextStore } from "../ports/text-store.js";
import type { ProviderHistory, UsageHistory } from "../ports/usage-history.js";

/** What a driver's composition root supplies: the adapters of its platform, and its words for remedies. */
export interface CoreAdapters {
  env: Environment;
  clock: Clock;
  config: ConfigStore;
  /** Snapshots and status polls kept between runs (files for the CLI, Raycast's Cache in Raycast). */
  store: TextStore;
  transport: HttpTransport;
  processes: ProcessRunner;
  originMap: OriginMap;
  writeRemedies: RemedyWriter;
  /** Replaces the polled status pages in usage documents (tests, previews). */
  status?: StatusReader;
  /** The user's browsers; without them no browser is read (embedders, tests). */
  browsers?: BrowserAdapters;
}

/** What reading browsers takes on a platform: its SQLite engine, its secret store, and whether someone is there to answer a prompt. */
export interface BrowserAdapters {
  sqlite: Sqlite;
  /** Caches working cookie headers (the OS keyring for the CLI, LocalStorage in Raycast). */
  secrets: SecretStore;
  /** A person may answer an OS prompt (a terminal; a Raycast command the user opened). */
  interactive: boolean;
  platform?: NodeJS.Platform;
  /** Chromium Local Storage of one profile (classic-level for the CLI, the pure reader in Raycast). */
  chromiumLocalStorage?: ChromiumLocalStorageReader;
  /** Replaces the OS Safe Storage reader (tests). */
  safeStorage?: SafeStorage;
}

export interface Core {
  env: Environment;
  clock: Clock;
  config: ConfigStore;
  catalog: ProviderCatalog;
  usage: UsageService;
  /** The polled status pages (`quotabar status`). */
  status: StatusReporter;
  writeRemedies: RemedyWriter;
  /** The browsers credential sources read, as this composition reads them. */
  browsers: BrowserAccess;
  /** Which browsers and profiles the provider's cookies were looked for in, and what was found (`quotabar cookies <id>[:account]`); null for an unknown id. */
  explainCookies(ref: string): Promise<CookieExplanation | null>;
  /** Forget what was kept for these providers (every account of each) or `id:account` refs (all when none is named): snapshots, status polls, kept values and cached cookie headers; the refs forgotten. */
  forget(providerIds?: readonly (string | AccountKey)[]): Promise<string[]>;
  /** The provider's sign-in flow over this core's transport (origin map included); null when it has none. */
  signIn(providerId: string): Promise<DeviceFlow | null>;
  /** Keeps providers' web sessions alive (spec section 8): `check` from a long-lived driver, `refresh` by hand. */
  keepalive: SessionKeepalive;
  /** The kept readings of each provider's meters (`quotabar history`), appended by every fresh fetch; providers without any are left out. */
  history(request?: HistoryRequest): Promise<ProviderHistory[]>;
  /** Thresholds crossed, run-outs forecast and incidents opened in a document, each raised once (state kept beside the history). */
  events: EventService;
  /** Refreshes every `intervalMs` and checks the sessions every 5 minutes until the signal aborts. */
  watch(options: WatchOptions): Promise<void>;
}

/** Which history to read: these providers (every account of each) or `id:account` refs (default: every one), readings since a time (default: all kept). */
export interface HistoryRequest {
  providers?: readonly string[];
  since?: Date;
}

/** A long-running refresh loop (`quotabar watch`, the library's `watch()`). */
export interface WatchOptions {
  intervalMs: number;
  /** What each refresh asks for (default: the enabled providers). */
  request?: UsageRequest;
  /** Ends the loop (Ctrl-C, the library's stop function): at once, mid-wait. */
  signal: AbortSignal;
  /** Each refresh's document, with how long the refresh took (`quotabar serve`'s fetch duration). */
  onDocument(document: UsageDocument, refresh: RefreshTiming): void | Promise<void>;
  /** What each keepalive check did, provider by provider. */
  onKeepalive?(reports: KeepaliveReport[]): void | Promise<void>;
  /**
   * After each refresh's onDocument, its events (possibly none), each raised once across runs and
   * processes. Without it, no event is raised (nor counted as told).
   */
  onEvents?(events: QuotabarEvent[], document: UsageDocument): void | Promise<void>;
  /**
   * A failure, and during what: a refresh that failed as a whole (an unreadable config file), the
   * events that could not be raised, a keepalive check. Reported, and the loop goes on.
   */
  onError?(error: unknown, during: "refresh" | "events" | "keepalive"): void;
  /** How to wait: the system's timers by default; a test passes its fake clock's. */
  sleep?(ms: number, signal: AbortSignal): Promise<void>;
}

/** When a refresh of the watch loop began (the core's clock) and how long it took. */
export interface RefreshTiming {
  startedAt: Date;
  durationMs: number;
}

/**
 * The one composition of the core, shared by the Node root (CLI and library) and the Raycast root.
 * A plain function: every dependency is handed over explicitly, nothing is registered that is not
 * used, and nothing runs until a method is called.
 */
export function composeCore(adapters: CoreAdapters): Core {
  const { env, clock, config, store, transport, processes, originMap, writeRemedies } = adapters;
  const catalog = PROVIDER_CATALOG;
  const polled = new StatusService({
    catalog,
    config,
    feed: createStatusFeed(transport),
    cache: new StoredStatusCache(store, (url) => mapUrl(new URL(url), originMap).href),
    clock,
    writeRemedies,
  });
  const status = adapters.status ?? polled;
  const browsers = adapters.browsers
    ? lazyBrowserAccess({
        env,
        platform: adapters.browsers.platform ?? process.platform,
        sqlite: adapters.browsers.sqlite,
        secrets: adapters.browsers.secrets,
        processes,
        store,
        clock,
        interactive: adapters.browsers.interactive,
        // the global switch: `"browserSecrets": false` at the config root (Raycast: "Read browser secrets")
        browserSecretsAllowed: async () => (await config.load().catch(() => null))?.browserSecrets !== false,
        ...(adapters.browsers.chromiumLocalStorage ? { chromiumLocalStorage: adapters.browsers.chromiumLocalStorage } : {}),
        ...(adapters.browsers.safeStorage ? { safeStorage: adapters.browsers.safeStorage } : {}),
      })
    : noBrowserAccess();
  const history = new StoredUsageHistory(store, env.QUOTABAR_ORIGIN_MAP ?? "");
  const events = new EventService({ config, clock, notified: new StoredNotifiedState(store) });
  const usage = new UsageService({
    catalog,
    config,
    cache: new StoredSnapshotCache(store, env.QUOTABAR_ORIGIN_MAP ?? ""),
    clock,
    env,
    status,
    transport,
    processes,
    browsers,
    writeRemedies,
    kept: new StoredKeptValues(store, browsers.secrets, clock, env.QUOTABAR_ORIGIN_MAP ?? ""),
    history,
  });
  const keepalive = new SessionKeepalive({ catalog, config, store, clock, env, transport, processes, browsers, writeRemedies });
  return {
    env,
    clock,
    config,
    catalog,
    usage,
    keepalive,
    history: async (request) => readHistory(history, catalog, await config.load(), request),
    events,
    watch: (options) => watch({ usage, keepalive, events, clock }, options),
    status: polled,
    writeRemedies,
    browsers,
    async forget(providerIds) {
      const forgotten = await usage.forget(providerIds);
      await Promise.all([
        // a status page is the provider's, whichever account
        polled.forget([...new Set(forgotten.map((key) => key.id))]),
        events.forget(forgotten),
        // the browser cookie code loads only when something is forgotten: a refresh never needs it
        import("../providers/kit/browser-cookies.js").then(({ forgetCachedCookieHeader }) =>
          Promise.all(forgotten.map((key) => forgetCachedCookieHeader(browsers.secrets, key))),
        ),
      ]);
      return forgotten.map(accountRef);
    },
    async explainCookies(ref) {
      const account = parseAccountRef(ref);
      const module = await catalog.load(account.id);
      if (!module) return null;
      const entry = entryOf(await config.load(), account);
      const { explainCookies } = await import("../adapters/browser/cookie-explanation.js");
      return explainCookies(module, entry, browsersForAccount(entry, browsers), env, () => clock.now());
    },
    async signIn(providerId) {
      const load = (await catalog.load(providerId))?.signIn;
      if (!load) return null;
      // the provider's entry carries where to sign in (a GitHub Enterprise host)
      const entry = (await config.load()).providers.find((p) => p.id === providerId);
      return (await load())({ transport, clock, ...(entry ? { entry } : {}) });
    },
  };
}

/**
 * The watch loop: a refresh whenever `intervalMs` has passed since the last one began, then a
 * keepalive check of the refreshed providers whenever 5 minutes have passed since the last; it
 * sleeps until the nearer of the two. Timers exist only while it runs.
 */
async function watch(
  core: { usage: UsageService; keepalive: SessionKeepalive; events: EventService; clock: Clock },
  options: WatchOptions,
): Promise<void> {
  const { signal } = options;
  const sleep = options.sleep ?? sleepOnTimers;
  const nowMs = () => core.clock.now().getTime();
  let nextRefresh = nowMs();
  let nextCheck = nextRefresh;
  let ids: string[] = [];
  while (!signal.aborted) {
    if (nowMs() >= nextRefresh) {
      nextRefresh = nowMs() + options.intervalMs;
      try {
        const startedAt = core.clock.now();
        const document = await core.usage.usage(options.request);
        // web sessions are kept alive for the default accounts (the keepalive reads the provider's own entry)
        ids = document.providers.filter((p) => (p.account ?? null) === null).map((p) => p.id);
        if (!signal.aborted) await options.onDocument(document, { startedAt, durationMs: nowMs() - startedAt.getTime() });
        if (!signal.aborted && options.onEvents) {
          // events that cannot be raised are reported, and the refresh still counts as one with none
          const events = await core.events.raise(document).catch((error: unknown) => {
            options.onError?.(error, "events");
            return [];
          });
          if (!signal.aborted) await options.onEvents(events, document);
        }
      } catch (error) {
        if (!signal.aborted) options.onError?.(error, "refresh");
      }
    }
    if (!signal.aborted && nowMs() >= nextCheck) {
      nextCheck = nowMs() + KEEPALIVE.checkEveryMs;
      const reports = await core.keepalive.check(ids, { signal }).catch((error: unknown) => {
        options.onError?.(error, "keepalive");
        return [];
      });
      if (!signal.aborted && reports.length > 0) await options.onKeepalive?.(reports);
    }
    if (!signal.aborted) await sleep(Math.max(0, Math.min(nextRefresh, nextCheck) - nowMs()), signal);
  }
}

/** The kept history of the requested providers (unknown ids are refused), readings since `since`. */
async function readHistory(
  history: UsageHistory,
  catalog: ProviderCatalog,
  config: QuotabarConfig,
  request: HistoryRequest = {},
): Promise<ProviderHistory[]> {
  const known = catalog.descriptors().map((d) => d.id);
  const refs = (request.providers && request.providers.length > 0 ? [...new Set(request.providers)] : known).map(parseAccountRef);
  const unknown = refs.filter((ref) => !known.includes(ref.id)).map((ref) => ref.id);
  if (unknown.length > 0) throw new UnknownProviderError(unknown, known);
  // a provider alone: its default account and every one the config names
  const keys = refs.flatMap((ref) => (ref.account === null ? [ref, ...namedAccountsOf(config, ref.id)] : [ref]));
  const sinceMs = request.since?.getTime() ?? -Infinity;
  const read = await Promise.all(keys.map((key) => history.read(key)));
  return read
    .map((kept) => ({
      ...kept,
      meters: kept.meters
        .map((meter) => ({ ...meter, points: meter.points.filter((p) => Date.parse(p.at) >= sinceMs) }))
        .filter((meter) => meter.points.length > 0),
    }))
    .filter((kept) => kept.meters.length > 0);
}

/** Resolves after `ms`, or at once when the signal aborts (its timer cleared). */
function sleepOnTimers(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
