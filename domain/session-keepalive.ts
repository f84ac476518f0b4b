import type { BrowserAccess } from "../ports/browser-credentials.js";
import type { Clock } from "../ports/clock.js";
import type { ConfigStore } from "../ports/config-store.js";
import type { Environment } from "../ports/environment.js";
import type { CredentialContext, FetchContext } from "../ports/fetch-context.js";
import type { HttpTransport } from "../ports/http-client.js";
import type { ProcessRunner } from "../ports/process-runner.js";
import type { ProviderCatalog, ProviderModule } from "../ports/provider-module.js";
import type { KeptSession, PingOutcome, SessionKeeper } from "../ports/session-keeper.js";
import type { TextStore } from "../ports/text-store.js";
import { entryOf } from "./config-entry.js";
import { asQuotabarError, QuotabarError } from "./errors.js";
import type { RemedyWriter } from "./remedy.js";
import { keptInMemory } from "./kept-in-memory.js";
import { scopedHttp, secretsOf } from "./scoped-http.js";
import type { UsageError } from "./usage-document.js";

const MINUTE_MS = 60_000;

/** The spec's keepalive timings (section 8), exactly. */
export const KEEPALIVE = {
  /** How often a long-lived driver checks (the watch loop's cadence, each Raycast menu-bar run). */
  checkEveryMs: 5 * MINUTE_MS,
  /** Renew when the earliest cookie expires sooner than this. */
  refreshBeforeExpiryMs: 5 * MINUTE_MS,
  /** Never two renewal attempts closer than this (a forced refresh excepted). */
  minGapMs: 2 * MINUTE_MS,
  /** Cookies without an expiry are renewed this long after the last success (or at once, never renewed). */
  sessionCookieEveryMs: 30 * MINUTE_MS,
  /** Consecutive failures after which it stops and tells the user to sign in again. */
  maxFailures: 3,
  /** Each renewal request may take this long. */
  pingTimeoutMs: 30_000,
} as const;

/** The renewal endpoints are tried in turn: a ping's whole budget. */
const PING_BUDGET_MS = 3 * KEEPALIVE.pingTimeoutMs;

/** What is kept between runs (TextStore `keepalive/<id>`), so short-lived drivers share one history. */
export interface KeepaliveState {
  lastAttemptAt: string | null;
  lastSuccessAt: string | null;
  failures: number;
  gaveUp: boolean;
}

export const FRESH_STATE: KeepaliveState = { lastAttemptAt: null, lastSuccessAt: null, failures: 0, gaveUp: false };

/** Why a check does not renew at all (gave up, too soon after the last attempt), or null to go on. */
export function skipReason(state: KeepaliveState, now: Date, forced: boolean): string | null {
  if (forced) return null;
  if (state.gaveUp) return `gave up after ${state.failures} failed renewals in a row`;
  const since = elapsedMs(state.lastAttemptAt, now);
  if (since !== null && since >= 0 && since < KEEPALIVE.minGapMs)
    return `the last attempt was ${seconds(since)} s ago (at least 120 s apart)`;
  return null;
}

/** Why the session is due for a renewal now, or null when it is not. */
export function refreshReason(state: KeepaliveState, session: Pick<KeptSession, "expiresAt">, now: Date): string | null {
  if (session.expiresAt === null) {
    const since = elapsedMs(state.lastSuccessAt, now);
    if (since === null) return "cookies without an expiry, never renewed";
    return since >= KEEPALIVE.sessionCookieEveryMs ? `cookies without an expiry, last renewed ${minutes(since)} min ago` : null;
  }
  const left = Date.parse(session.expiresAt) - now.getTime();
  if (Number.isNaN(left)) return "a cookie with an unreadable expiry";
  return left < KEEPALIVE.refreshBeforeExpiryMs ? `the earliest cookie expires in ${seconds(Math.max(0, left))} s` : null;
}

/** The state once an attempt starts: it counts for the minimum gap whatever its outcome. */
export function attempted(state: KeepaliveState, now: Date, forced: boolean): KeepaliveState {
  const base = forced ? { ...state, failures: 0, gaveUp: false } : state;
  return { ...base, lastAttemptAt: now.toISOString() };
}

/** The state after an attempt's outcome: a success clears the failures, the third failure in a row gives up. */
export function afterAttempt(state: KeepaliveState, outcome: PingOutcome | "error", now: Date): KeepaliveState {
  if (outcome === "renewed") return { ...state, lastSuccessAt: now.toISOString(), failures: 0, gaveUp: false };
  const failures = state.failures + 1;
  return { ...state, failures, gaveUp: failures >= KEEPALIVE.maxFailures };
}

/** One provider's check, as a driver shows it. */
export interface KeepaliveReport {
  provider: string;
  name: string;
  /** skipped: not looked at (too soon, gave up, no session, already running); fresh: nothing due. */
  outcome: "skipped" | "fresh" | "renewed" | "failed" | "gave-up";
  /** Why, in a few words of our own (never upstream text). */
  detail: string;
  failures: number;
  /** It stopped trying until the user signs in again (or refreshes the session by hand). */
  gaveUp: boolean;
  checkedAt: string;
  /** What to tell the user: set when it gave up, and when a refresh asked for by hand failed. */
  error: UsageError | null;
}

export interface SessionKeepaliveDeps {
  catalog: ProviderCatalog;
  config: ConfigStore;
  /** Where each provider's KeepaliveState is kept between runs. */
  store: TextStore;
  clock: Clock;
  env: Environment;
  transport: HttpTransport;
  processes: ProcessRunner;
  browsers: BrowserAccess;
  writeRemedies: RemedyWriter;
}

/**
 * The session keepalive (spec section 8): each check renews a provider's web session when its
 * earliest cookie is about to expire (or, for cookies without an expiry, every 30 minutes), never
 * twice within 2 minutes, and gives up after 3 failures in a row. The decisions above are pure; this
 * runs them on the clock, the stored state and the provider's SessionKeeper. A long-lived driver
 * calls `check` every KEEPALIVE.checkEveryMs; `refresh` is the user's "Refresh session".
 */
export class SessionKeepalive {
  private readonly running = new Set<string>();

  constructor(private readonly deps: SessionKeepaliveDeps) {}

  /** The providers among `ids` that have a web session to keep. */
  kept(ids: readonly string[]): string[] {
    return ids.filter((id) => this.deps.catalog.descriptor(id)?.keepsSession === true);
  }

  /** One check of each of these providers that has a keeper (the others are left out of the reports). */
  async check(ids: readonly string[], options: { signal?: AbortSignal } = {}): Promise<KeepaliveReport[]> {
    return Promise.all(this.kept(ids).map((id) => this.run(id, false, options.signal)));
  }

  /** A renewal now, whatever the timing: the failures and a give-up are forgotten first. */
  async refresh(id: string, options: { signal?: AbortSignal } = {}): Promise<KeepaliveReport> {
    return this.run(id, true, options.signal);
  }

  /** The providers among `ids` whose keepalive gave up, each with what to tell the user (from the stored state: no network). */
  async notices(ids: readonly string[]): Promise<KeepaliveReport[]> {
    const reports = await Promise.all(
      this.kept(ids).map(async (id) => {
        const state = await this.state(id);
        if (!state.gaveUp) return [];
        const module = (await this.deps.catalog.load(id)) as ProviderModule;
        const report = reporter(module, this.deps.clock.now(), this.deps.writeRemedies);
        return [report("skipped", "gave up", state, gaveUpError(module, module.keepalive as SessionKeeper, state))];
      }),
    );
    return reports.flat();
  }

  async state(id: string): Promise<KeepaliveState> {
    const text = await this.deps.store.read(stateKey(id)).catch(() => null);
    return parseState(text);
  }

  private async run(id: string, forced: boolean, signal: AbortSignal | undefined): Promise<KeepaliveReport> {
    const module = await this.deps.catalog.load(id);
    const keeper = module?.keepalive;
    if (!module || !keeper) throw new QuotabarError("not_configured", `${module?.descriptor.name ?? id} has no web session to keep alive`);
    const report = reporter(module, this.deps.clock.now(), this.deps.writeRemedies);
    let state = await this.state(id);
    if (this.running.has(id)) return report("skipped", "a renewal is already running", state);
    const skip = skipReason(state, this.deps.clock.now(), forced);
    if (skip) return report("skipped", skip, state, state.gaveUp ? gaveUpError(module, keeper, state) : null);
    this.running.add(id);
    try {
      const context = await this.credentialContext(id);
      // a store that cannot be read is no session to renew, as the reference treats a failed import
      const session = await keeper.session(context).catch(() => null);
      if (!session) {
        const error = forced ? noSession(module, keeper) : null;
        return report(forced ? "failed" : "skipped", "no session cookies found", state, error);
      }
      const due = forced ? "asked for by hand" : refreshReason(state, session, this.deps.clock.now());
      if (!due) return report("fresh", "nothing expires soon", state);
      state = attempted(state, this.deps.clock.now(), forced);
      await this.save(id, state);
      const outcome = await this.ping(module, keeper, session, context, signal);
      // stopped by the driver (Ctrl-C, watch() stopped): no outcome to count
      if (signal?.aborted) return report("skipped", "stopped before the renewal finished", state);
      state = afterAttempt(state, outcome.result, this.deps.clock.now());
      await this.save(id, state);
      if (outcome.result === "renewed") return report("renewed", due, state);
      if (state.gaveUp) return report("gave-up", outcome.detail, state, gaveUpError(module, keeper, state));
      return report("failed", outcome.detail, state, forced ? renewalFailed(module, keeper, outcome.result) : null);
    } finally {
      this.running.delete(id);
    }
  }

  private async ping(
    module: ProviderModule,
    keeper: SessionKeeper,
    session: KeptSession,
    base: CredentialContext,
    signal: AbortSignal | undefined,
  ): Promise<{ result: PingOutcome | "error"; detail: string }> {
    const controller = new AbortController();
    const stop = () => controller.abort();
    signal?.addEventListener("abort", stop, { once: true });
    const http = scopedHttp(this.deps.transport, {
      service: module.descriptor.name,
      signal: controller.signal,
      deadline: Date.now() + PING_BUDGET_MS,
      budgetMs: PING_BUDGET_MS,
      secrets: secretsOf(session.header),
    });
    // a ping keeps a session alive; it neither needs nor leaves kept values
    const context: FetchContext = { ...base, http, signal: controller.signal, timeoutMs: PING_BUDGET_MS, kept: keptInMemory() };
    try {
      const result = await keeper.ping(session, context);
      return { result, detail: PING_DETAIL[result] };
    } catch (thrown) {
      // the error's text may hold what the upstream said: only its code is kept
      return { result: "error", detail: `the renewal request failed (${asQuotabarError(thrown).code})` };
    } finally {
      signal?.removeEventListener("abort", stop);
      controller.abort();
    }
  }

  private async credentialContext(id: string): Promise<CredentialContext> {
    const entry = entryOf(await this.deps.config.load(), id);
    return {
      env: this.deps.env,
      entry,
      now: () => this.deps.clock.now(),
      sourceMode: "auto",
      processes: this.deps.processes,
      browsers: this.deps.browsers,
    };
  }

  private async save(id: string, state: KeepaliveState): Promise<void> {
    await this.deps.store.write(stateKey(id), JSON.stringify(state)).catch(() => undefined);
  }
}

const PING_DETAIL: Record<PingOutcome, string> = {
  renewed: "renewed",
  expired: "the service says the session expired",
  "no-data": "no renewal endpoint confirmed the session",
};

const stateKey = (id: string) => `keepalive/${id}`;

/** A stored state, or a fresh one for anything unreadable (a state is never worth failing a check over). */
export function parseState(text: string | null): KeepaliveState {
  if (!text) return { ...FRESH_STATE };
  try {
    const value = JSON.parse(text) as Partial<Record<keyof KeepaliveState, unknown>>;
    const time = (v: unknown) => (typeof v === "string" && !Number.isNaN(Date.parse(v)) ? v : null);
    const failures = typeof value.failures === "number" && Number.isInteger(value.failures) && value.failures >= 0 ? value.failures : 0;
    return { lastAttemptAt: time(value.lastAttemptAt), lastSuccessAt: time(value.lastSuccessAt), failures, gaveUp: value.gaveUp === true };
  } catch {
    return { ...FRESH_STATE };
  }
}

function reporter(module: ProviderModule, now: Date, write: RemedyWriter) {
  return (outcome: KeepaliveReport["outcome"], detail: string, state: KeepaliveState, error: QuotabarError | null = null) => ({
    provider: module.descriptor.id,
    name: module.descriptor.name,
    outcome,
    detail,
    failures: state.failures,
    gaveUp: state.gaveUp,
    checkedAt: now.toISOString(),
    error: error ? error.toUsageError(write) : null,
  });
}

const gaveUpError = (module: ProviderModule, keeper: SessionKeeper, state: KeepaliveState) =>
  new QuotabarError(
    "expired",
    `${module.descriptor.name} session expired: renewing it failed ${state.failures} times in a row. Please sign in again.`,
    { remedies: [{ kind: "browser-sign-in", url: keeper.signInUrl }] },
  );

const renewalFailed = (module: ProviderModule, keeper: SessionKeeper, result: PingOutcome | "error") =>
  new QuotabarError(
    result === "expired" ? "expired" : "upstream",
    result === "expired"
      ? `${module.descriptor.name} session expired. Please log in again.`
      : `${module.descriptor.name} session could not be renewed: ${result === "error" ? "the renewal request failed" : PING_DETAIL[result]}.`,
    { remedies: [{ kind: "browser-sign-in", url: keeper.signInUrl }] },
  );

const noSession = (module: ProviderModule, keeper: SessionKeeper) =>
  new QuotabarError("not_configured", `No ${module.descriptor.name} session found to refresh.`, {
    remedies: [{ kind: "browser-sign-in", url: keeper.signInUrl }],
  });

function elapsedMs(iso: string | null, now: Date): number | null {
  if (iso === null) return null;
  const at = Date.parse(iso);
  return Number.isNaN(at) ? null : now.getTime() - at;
}

const seconds = (ms: number) => Math.round(ms / 1000);
const minutes = (ms: number) => Math.floor(ms / MINUTE_MS);
