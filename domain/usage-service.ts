import type { BrowserAccess } from "../ports/browser-credentials.js";
import type { Clock } from "../ports/clock.js";
import type { ConfigStore, ProviderConfigEntry, QuotabarConfig } from "../ports/config-store.js";
import type { Environment } from "../ports/environment.js";
import type { CredentialContext, FetchContext } from "../ports/fetch-context.js";
import type { AnyFetchStrategy } from "../ports/fetch-strategy.js";
import type { HttpTransport } from "../ports/http-client.js";
import type { ProcessRunner } from "../ports/process-runner.js";
import type { KeptValueStore } from "../ports/kept-values.js";
import type { ProviderCatalog, ProviderModule } from "../ports/provider-module.js";
import type { SnapshotCache } from "../ports/snapshot-cache.js";
import type { StatusReader } from "../ports/status-feed.js";
import type { ProviderHistory, UsageHistory } from "../ports/usage-history.js";
import {
  accountKey,
  accountRef,
  isAccountLabel,
  keyOfEntry,
  keyOfUsage,
  parseAccountRef,
  sameAccount,
  type AccountKey,
} from "./account.js";
import { browsersForAccount } from "./account-browsers.js";
import { entryOf, hasDefaultEntry, namedAccountsOf } from "./config-entry.js";
import { countProblem } from "./coerce.js";
import type { ProviderDescriptor, SourceKind } from "./descriptor.js";
import { asQuotabarError, budgetExceeded, QuotabarError } from "./errors.js";
import { UnknownAccountError, UnknownProviderError } from "./unknown-provider.js";
import { withPace } from "./pace.js";
import { checkedUsage } from "./usage-check.js";
import type { RemedyWriter } from "./remedy.js";
import { scopedHttp, secretsOf } from "./scoped-http.js";
import { cleanStrings } from "./untrusted-text.js";
import type { ProviderStatus, ProviderUsage, Snapshot, UsageDocument } from "./usage-document.js";

export const DEFAULT_TIMEOUT_SECONDS = 15;
/** How many of one provider's accounts are fetched at once (they go to the same host). */
export const ACCOUNTS_AT_ONCE = 4;

export interface UsageRequest {
  /** Provider ids (every account of each) or `id:account` (that one); default: the enabled ones (config), else every provider whose credentials are found. */
  providers?: readonly string[];
  /** Per-provider budget; default: config `timeoutSeconds`, else 15 s. */
  timeoutMs?: number;
  /** Add each provider's status page to the document. */
  status?: boolean;
  /** Force a source mode (`--source`). */
  source?: string;
}

/** One line of `quotabar providers` (and Raycast's list of providers not set up). */
export interface ProviderListing {
  id: string;
  /** The account (config `account`); null: the default one. */
  account: string | null;
  name: string;
  auth: readonly string[];
  credentialsFound: boolean;
  enabled: boolean;
  /** Its sources have landed (a provider still to come is listed so config files stay valid). */
  supported: boolean;
  unofficial: boolean;
  dashboardUrl: string;
  status: ProviderDescriptor["status"];
  credentialEnv: readonly string[];
}

export { UnknownProviderError } from "./unknown-provider.js";

/** A forced source mode (`--source`) that a requested provider does not have. */
export class UnsupportedSourceError extends QuotabarError {
  override name = "UnsupportedSourceError";
  constructor(provider: string, source: string, offered: readonly string[]) {
    super("not_configured", `${provider} has no source "${source}"`, {
      remedies: [{ kind: "advice", text: `Its sources: ${["auto", ...offered].join(", ")}.` }],
    });
  }
}

export interface UsageServiceDeps {
  catalog: ProviderCatalog;
  config: ConfigStore;
  cache: SnapshotCache;
  clock: Clock;
  env: Environment;
  status: StatusReader;
  transport: HttpTransport;
  processes: ProcessRunner;
  /** Browser cookies and Local Storage, and the secret store that caches cookie headers. */
  browsers: BrowserAccess;
  /** How this driver words an error's remedies (the document's `hint`). */
  writeRemedies: RemedyWriter;
  /** What providers learnt in earlier runs (tokens, ids), per credential. */
  kept: KeptValueStore;
  /** Each meter's recent readings, for its pace; without it, pace comes from the window alone. */
  history?: UsageHistory;
}

/**
 * The core use case: fetch the requested providers concurrently, each under its own time budget
 * (owned here, and only here), trying its strategies in order, and turn every outcome (even a
 * failure) into document data.
 */
export class UsageService {
  constructor(private readonly deps: UsageServiceDeps) {}

  async usage(request: UsageRequest = {}): Promise<UsageDocument> {
    const config = await this.deps.config.load();
    const source = request.source;
    const accounts = await this.select(config, request.providers);
    let modules = await Promise.all([...new Set(accounts.map((key) => key.id))].map((id) => this.module(id)));
    if (source && source !== "auto") {
      const asked = request.providers && request.providers.length > 0;
      // the sources a provider declares, for every provider alike (a config entry's own `source` may be looser: Kilo reads "web" as auto)
      const lacking = modules.filter((m) => m.strategies.length > 0 && !sourcesOf(m).includes(source));
      const first = lacking[0];
      if (asked && first) throw new UnsupportedSourceError(first.descriptor.name, source, sourcesOf(first));
      modules = modules.filter((m) => !lacking.includes(m));
    }
    const timeoutMs = request.timeoutMs ?? (config.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
    const providers = await Promise.all(
      modules.map((module) => {
        const own = accounts.filter((key) => key.id === module.descriptor.id);
        return this.fetchAccounts(module, own, config, timeoutMs, request);
      }),
    );
    return { version: 1, generatedAt: this.deps.clock.now().toISOString(), providers: providers.flat() };
  }

  /**
   * Requested ids (every account of each) and `id:account` refs in the order asked; otherwise
   * config order, then catalog order, the enabled accounts only. A provider's accounts are adjacent.
   */
  async select(config: QuotabarConfig, requested?: readonly string[]): Promise<AccountKey[]> {
    const known = this.known();
    if (requested && requested.length > 0) {
      const refs = requested.map(parseAccountRef);
      const unknown = requested.filter((_, i) => !known.includes((refs[i] as AccountKey).id));
      if (unknown.length > 0) throw new UnknownProviderError(unknown, known);
      const missing = refs.filter((ref) => ref.account !== null && !namedAccountsOf(config, ref.id).some((k) => sameAccount(k, ref)));
      if (missing.length > 0) {
        const named = config.providers.map(keyOfEntry).filter((key) => key.account !== null && known.includes(key.id));
        const shown = missing.map((ref) => (isAccountLabel(ref.account) ? accountRef(ref) : `${ref.id}:(not an account label)`));
        throw new UnknownAccountError(shown, `Accounts in the config file: ${named.map(accountRef).join(", ") || "none"}`);
      }
      const chosen = await Promise.all(refs.map((ref) => (ref.account === null ? this.accountsOf(config, ref.id) : [ref])));
      return grouped(unique(chosen.flat()));
    }
    const configured = config.providers.map((e) => e.id).filter((id) => known.includes(id));
    const ordered = [...new Set([...configured, ...known])];
    const accounts = (await Promise.all(ordered.map((id) => this.accountsOf(config, id)))).flat();
    const enabled = await Promise.all(accounts.map(async (key) => this.isEnabled(await this.module(key.id), entryOf(config, key))));
    return accounts.filter((_, i) => enabled[i]);
  }

  /**
   * A provider's accounts: its default one, then the named ones of the config. With named accounts
   * and no entry of its own, the default account counts only when its credentials are found (an
   * environment variable, a vendor's files): naming a work account never adds an empty default row.
   */
  private async accountsOf(config: QuotabarConfig, id: string): Promise<AccountKey[]> {
    const named = namedAccountsOf(config, id);
    if (named.length === 0 || hasDefaultEntry(config, id)) return [accountKey(id), ...named];
    const withDefault = await this.credentialsFound(await this.module(id), entryOf(config, id));
    return withDefault ? [accountKey(id), ...named] : named;
  }

  /**
   * Forget what was kept for these providers (every account of each), `id:account` refs or exact
   * accounts (everything when none is named); what was forgotten.
   */
  async forget(refs?: readonly (string | AccountKey)[]): Promise<AccountKey[]> {
    const known = this.known();
    const config = await this.deps.config.load().catch(() => ({ providers: [] }) as QuotabarConfig);
    const asked = refs && refs.length > 0 ? refs : known;
    // a provider named alone: its default account and every account the config names
    const accountsOf = (ref: string | AccountKey): AccountKey[] =>
      typeof ref !== "string" ? [ref] : ref.includes(":") ? [parseAccountRef(ref)] : [accountKey(ref), ...namedAccountsOf(config, ref)];
    const chosen = unique(asked.flatMap(accountsOf).filter((key) => known.includes(key.id)));
    await Promise.all(
      chosen.flatMap((key) => [
        this.deps.cache.remove(key),
        this.deps.kept.removeAll(key),
        this.deps.history?.remove(key) ?? Promise.resolve(),
      ]),
    );
    return chosen;
  }

  /** Every account of every provider, with whether its credentials are found here and whether it is on (no network). */
  async listProviders(): Promise<ProviderListing[]> {
    const config = await this.deps.config.load();
    const accounts = this.known().flatMap((id) => [accountKey(id), ...namedAccountsOf(config, id)]);
    return Promise.all(
      accounts.map(async (key) => {
        const module = await this.module(key.id);
        const { descriptor } = module;
        const entry = entryOf(config, key);
        // one look for credentials per account (it may read browsers or run ps): enabled follows from it
        const credentialsFound = await this.credentialsFound(module, entry);
        return {
          id: descriptor.id,
          account: key.account,
          name: descriptor.name,
          auth: descriptor.auth,
          credentialsFound,
          enabled: enabledBy(module, entry, credentialsFound),
          supported: module.strategies.length > 0,
          unofficial: descriptor.unofficial === true,
          dashboardUrl: descriptor.dashboardUrl,
          status: descriptor.status,
          credentialEnv: descriptor.credentialEnv,
        };
      }),
    );
  }

  /** An explicit `enabled` in the config decides; otherwise a provider is on when its credentials are found. */
  async isEnabled(module: ProviderModule, entry: ProviderConfigEntry): Promise<boolean> {
    const decided = enabledBy(module, entry, null);
    return decided ?? this.credentialsFound(module, entry);
  }

  /** Whether any strategy finds a credential locally (no network). */
  async credentialsFound(module: ProviderModule, entry: ProviderConfigEntry): Promise<boolean> {
    // finding out whether a provider is set up never prompts: an OS dialog to list providers would be a surprise
    const base = this.credentialContext(entry, undefined);
    const context = { ...base, browsers: { ...base.browsers, interactive: false } };
    for (const strategy of this.applicable(module, context.sourceMode)) {
      try {
        if ((await strategy.credentials.resolve(context)) !== null) return true;
      } catch {
        // a credential source that cannot even look counts as "not found"
      }
    }
    return false;
  }

  /**
   * A provider's accounts, ACCOUNTS_AT_ONCE at a time, all within the provider's one time budget (an
   * account still waiting when it is spent fails at once); the status page is read once for all.
   */
  private async fetchAccounts(
    module: ProviderModule,
    accounts: readonly AccountKey[],
    config: QuotabarConfig,
    budgetMs: number,
    request: UsageRequest,
  ): Promise<ProviderUsage[]> {
    const deadline = Date.now() + budgetMs;
    const statusController = new AbortController();
    const statusTimer = setTimeout(() => statusController.abort(), budgetMs);
    // the status page gets the provider's time budget too, so a slow one never holds the usage back
    const status = request.status ? this.readStatus(module.descriptor.id, statusController.signal) : Promise.resolve(null);
    try {
      return await inTurns(accounts, ACCOUNTS_AT_ONCE, (key) =>
        this.fetchProvider(module, key, entryOf(config, key), { budgetMs, deadline }, request, status),
      );
    } finally {
      clearTimeout(statusTimer);
      statusController.abort();
    }
  }

  private async fetchProvider(
    module: ProviderModule,
    key: AccountKey,
    entry: ProviderConfigEntry,
    { budgetMs, deadline }: { budgetMs: number; deadline: number },
    request: UsageRequest,
    statusPromise: Promise<ProviderStatus | null>,
  ): Promise<ProviderUsage> {
    const { descriptor } = module;
    const controller = new AbortController();
    const secrets: string[] = [];
    // whose numbers these are: the first credential the configuration gives (never a token minted on the way)
    let whose: string[] = [];
    let timer: NodeJS.Timeout | undefined;
    const outOfTime = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => {
          reject(budgetExceeded(descriptor.name, budgetMs));
          controller.abort();
        },
        Math.max(0, deadline - Date.now()),
      );
    });
    try {
      const run = this.runStrategies(module, entry, request.source, (credential, named) => {
        const credentialSecrets = secretsOf(credential);
        if (whose.length === 0) whose = secretsOf(named);
        secrets.push(...credentialSecrets);
        // an account that waited its turn past the provider's budget asks nothing (its last numbers are served)
        if (Date.now() >= deadline) throw budgetExceeded(descriptor.name, budgetMs);
        const http = scopedHttp(this.deps.transport, { service: descriptor.name, signal: controller.signal, deadline, budgetMs, secrets });
        const kept = this.deps.kept.scoped(key, credentialSecrets, (secret) => secrets.push(secret));
        return { http, signal: controller.signal, timeoutMs: Math.max(0, deadline - Date.now()), kept };
      });
      const { snapshot, source } = await Promise.race([run, outOfTime]);
      const usage = await this.validated({
        ...identity(module, key),
        ok: true,
        source,
        ...cleanStrings(snapshot, secrets),
        fetchedAt: this.deps.clock.now().toISOString(),
        status: cleanStrings(await statusPromise, []),
      });
      // the snapshot and the history are kept side by side (two files, each written and synced)
      const keeping = usage.ok && whose.length > 0 ? this.deps.cache.write(usage, whose).catch(() => undefined) : undefined;
      const paced = await this.paced(usage, whose, true);
      await keeping;
      return paced;
    } catch (thrown) {
      return this.failure(module, key, asQuotabarError(thrown), secrets, whose, await statusPromise);
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  }

  private async runStrategies(
    module: ProviderModule,
    entry: ProviderConfigEntry,
    sourceOverride: string | undefined,
    /** The context of a fetch with this credential; `identity` is the part of it that says whose it is. */
    scopeFor: (credential: unknown, identity: unknown) => Pick<FetchContext, "http" | "signal" | "timeoutMs" | "kept">,
  ): Promise<{ snapshot: Snapshot; source: SourceKind }> {
    const base = this.credentialContext(entry, sourceOverride);
    const strategies = this.applicable(module, base.sourceMode);
    if (module.strategies.length === 0) {
      throw new QuotabarError("unsupported_platform", `${module.descriptor.name} is not supported by this version of quotabar yet`, {
        remedies: [{ kind: "advice", text: "The provider is listed so your config stays valid; its sources are still to come." }],
      });
    }
    if (strategies.length === 0) {
      throw new QuotabarError("not_configured", `${module.descriptor.name} has no source "${base.sourceMode}"`, {
        remedies: [{ kind: "advice", text: `Use one of: auto, ${sourcesOf(module).join(", ")}.` }],
      });
    }
    let lastError: QuotabarError | null = null;
    for (const [index, strategy] of strategies.entries()) {
      const credential = await strategy.credentials.resolve(base);
      if (credential === null) continue;
      const context: FetchContext = { ...base, ...scopeFor(credential, strategy.identity ? strategy.identity(credential) : credential) };
      try {
        const reading = await strategy.fetch(credential, context);
        return { snapshot: strategy.toSnapshot(reading, this.deps.clock.now()), source: strategy.source };
      } catch (thrown) {
        const error = asQuotabarError(thrown);
        const isLast = index === strategies.length - 1;
        if (isLast || !strategy.fallbackOn?.(error, context)) throw error;
        lastError = error;
      }
    }
    throw lastError ?? (strategies[0] as AnyFetchStrategy).missingCredential(base);
  }

  private applicable(module: ProviderModule, sourceMode: string): AnyFetchStrategy[] {
    return module.strategies.filter((s) => (s.appliesTo ? s.appliesTo(sourceMode) : sourceMode === "auto" || sourceMode === s.source));
  }

  private credentialContext(entry: ProviderConfigEntry, sourceOverride: string | undefined): CredentialContext {
    const fromEntry = typeof entry.source === "string" && entry.source.trim() !== "" ? entry.source.trim() : "auto";
    return {
      env: this.deps.env,
      entry,
      now: () => this.deps.clock.now(),
      sourceMode: sourceOverride ?? fromEntry,
      processes: this.deps.processes,
      // a named account (or a cookieSource profile) sees only its own browser profile
      browsers: browsersForAccount(entry, this.deps.browsers),
    };
  }

  /**
   * A failed fetch serves the last good snapshot, marked stale, when there is one for the same
   * credential (`whose`: what the configuration names, whatever else this run read or minted).
   * Every error passes here, so this is where the credential and token-shaped text are redacted,
   * whatever the upstream echoed back.
   */
  private async failure(
    module: ProviderModule,
    key: AccountKey,
    error: QuotabarError,
    secrets: readonly string[],
    whose: readonly string[],
    status: ProviderStatus | null,
  ): Promise<ProviderUsage> {
    // only a credential that was found and used has numbers of its own to fall back on
    const cached = whose.length === 0 ? null : await this.deps.cache.read(key, whose).catch(() => null);
    const usageError = cleanStrings(error.toUsageError(this.deps.writeRemedies), secrets);
    status = cleanStrings(status, []);
    if (cached) {
      const stale = { ...cached, ...identity(module, key), ok: false, stale: true, error: usageError, status: status ?? cached.status };
      return this.paced(stale, whose, false);
    }
    return {
      ...identity(module, key),
      ok: false,
      source: null,
      plan: null,
      primary: null,
      secondary: null,
      tertiary: null,
      details: [],
      status,
      fetchedAt: null,
      stale: false,
      error: usageError,
    };
  }

  /**
   * Each meter's pace now, from the readings kept for this credential; a fresh reading is added to
   * them first. The history is a help, never a condition: when it cannot be read, the window alone decides.
   */
  private async paced(usage: ProviderUsage, whose: readonly string[], fresh: boolean): Promise<ProviderUsage> {
    const history = this.deps.history;
    const kept: ProviderHistory | null = history
      ? await (fresh ? history.append(usage, whose) : history.read(keyOfUsage(usage), whose)).catch(() => null)
      : null;
    return withPace(usage, this.deps.clock.now(), kept);
  }

  private async readStatus(id: string, signal: AbortSignal): Promise<ProviderStatus | null> {
    try {
      return await this.deps.status.statusFor(id, { signal });
    } catch {
      return null; // a failing status page never fails the usage fetch
    }
  }

  /**
   * A policy that produced something outside the contract, or a number no real quota has
   * (negative, not finite, used of a zero limit, a reset before 2000), fails that provider with a
   * parse error naming the field: never a silently wrong meter.
   */
  private async validated(usage: ProviderUsage): Promise<ProviderUsage> {
    // checked without zod; only a refused value builds the document's schema, to name the field
    const checked = checkedUsage(usage) ?? (await parsedBySchema(usage));
    const impossible = impossibleValue(checked);
    if (impossible) throw new QuotabarError("parse", `${usage.name} sent an impossible value: ${impossible}`);
    return checked;
  }

  private known(): string[] {
    return this.deps.catalog.descriptors().map((d) => d.id);
  }

  private async module(id: string): Promise<ProviderModule> {
    const module = await this.deps.catalog.load(id);
    if (!module) throw new UnknownProviderError([id], this.known());
    return module;
  }
}

/** The document's schema on a value checkedUsage refused: its first issue, named, as a parse error. */
async function parsedBySchema(usage: ProviderUsage): Promise<ProviderUsage> {
  const { ProviderUsageSchema } = await import("./usage-document.js");
  const result = ProviderUsageSchema.safeParse(usage);
  if (result.success) return result.data; // the two agree (test/core/usage-check.test.ts): not reached
  const issue = result.error.issues[0];
  throw new QuotabarError("parse", `${usage.name} produced an invalid value at ${issue?.path.join(".") ?? "?"}: ${issue?.message ?? ""}`);
}

/** Enabled by the config, off for providers never turned on automatically, else whether credentials were found (null: look first). */
function enabledBy(module: ProviderModule, entry: ProviderConfigEntry, credentialsFound: boolean): boolean;
function enabledBy(module: ProviderModule, entry: ProviderConfigEntry, credentialsFound: null): boolean | null;
function enabledBy(module: ProviderModule, entry: ProviderConfigEntry, credentialsFound: boolean | null): boolean | null {
  if (typeof entry.enabled === "boolean") return entry.enabled;
  if (!module.descriptor.enabledByDefault) return false;
  return credentialsFound;
}

/** The source modes a provider answers to besides auto. */
function sourcesOf(module: ProviderModule): string[] {
  return [...new Set(module.strategies.map((s) => s.source))];
}

const EARLIEST_RESET = Date.UTC(2000, 0, 1);

/** The first meter field no real quota can have, as "primary.used = -600"; null when all are possible. */
export function impossibleValue(usage: Pick<ProviderUsage, "primary" | "secondary" | "tertiary">): string | null {
  for (const role of ["primary", "secondary", "tertiary"] as const) {
    const meter = usage[role];
    if (!meter) continue;
    for (const field of ["used", "limit"] as const) {
      const value = meter[field];
      if (value !== null && countProblem(value) !== null) return `${role}.${field} = ${value}`;
    }
    if (meter.limit === 0 && meter.used !== null && meter.used > 0) return `${role}.used = ${meter.used} of a limit of 0`;
    if (meter.resetsAt !== null && Date.parse(meter.resetsAt) < EARLIEST_RESET) return `${role}.resetsAt = ${meter.resetsAt}`;
  }
  return null;
}

function identity(module: ProviderModule, key: AccountKey) {
  return { id: module.descriptor.id, account: key.account, name: module.descriptor.name, stale: false, error: null };
}

/** Each account once, in the order first named. */
function unique(keys: readonly AccountKey[]): AccountKey[] {
  return keys.filter((key, i) => keys.findIndex((other) => sameAccount(other, key)) === i);
}

/** A provider's accounts next to each other, providers in the order first named. */
function grouped(keys: readonly AccountKey[]): AccountKey[] {
  const ids = [...new Set(keys.map((key) => key.id))];
  return ids.flatMap((id) => keys.filter((key) => key.id === id));
}

/** `work` for every item, at most `atOnce` running at a time; the answers in the items' order. */
async function inTurns<T, R>(items: readonly T[], atOnce: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const answers: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      answers[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
  return answers;
}
