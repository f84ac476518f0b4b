/**
 * `quotabar bar`: what a status bar polls every few seconds. It answers from the kept snapshots and
 * refreshes only the providers whose last answer is older than --max-age, so most polls make no
 * request and load no core: the config (checked without zod), a few small files, a render. Pollers
 * that start together queue on a lock per provider and read again after waiting, so a provider is
 * never refreshed twice at once.
 */
import { join } from "node:path";
import { FileTextStore } from "../../adapters/cache/file-text-store.js";
import { LatestSnapshots } from "../../adapters/cache/latest-snapshots.js";
import { originKey } from "../../adapters/cache/snapshot-keys.js";
import { resolveCacheDir, resolveConfigPath } from "../../adapters/config/config-path.js";
import { JsonConfigStore } from "../../adapters/config/json-config-store.js";
import { accountRef, keyOfUsage, parseAccountRef } from "../../domain/account.js";
import { withPace } from "../../domain/pace.js";
import type { ProviderUsage, UsageDocument } from "../../domain/usage-document.js";
import { DESCRIPTORS } from "../../providers/registry.js";
import type { Core } from "../../library/compose-core.js";
import type { QuotabarConfig } from "../../ports/config-store.js";
import type { Environment } from "../../ports/environment.js";
import { parseDuration } from "../duration.js";
import { barView, type BarMeterChoice } from "../render/bar/bar-view.js";
import { BAR_FORMATS, type BarFormat } from "../render/bar/formats.js";
import { I3BLOCKS_URGENT_EXIT } from "../render/bar/i3blocks.js";
import { KeptSelection } from "./kept-selection.js";
import { refreshUnderLocks } from "./refresh-lock.js";

export const DEFAULT_MAX_AGE = "5m";
/** The longest --max-age: a week-old number in a bar would be worse than none. */
export const MAX_AGE_LIMIT_MS = 7 * 86_400_000;

/** --max-age in milliseconds (0 refreshes every time), or null when it is not a duration up to a week. */
export function maxAgeMs(text: string): number | null {
  const ms = parseDuration(text);
  return ms !== null && ms <= MAX_AGE_LIMIT_MS ? ms : null;
}

export interface BarRequest {
  format: BarFormat;
  /** The providers (`id`, every account of it, or `id:account`) to show, in order; null: the enabled accounts (as `quotabar` chooses them). */
  providers: readonly string[] | null;
  /** A kept answer younger than this is shown as it is; older ones are refreshed. */
  maxAgeMs: number;
  meter: BarMeterChoice;
  /** --config */
  config?: string | undefined;
}

export interface BarResult {
  output: string;
  /** 0; 33 for i3blocks when a meter is critical (i3blocks marks the block urgent). */
  exitCode: number;
}

export interface BarDependencies {
  env: Environment;
  now(): Date;
  /** The core, for a refresh only (tests hand in their own). */
  core?(): Promise<Core>;
}

const hasNamedAccounts = (config: QuotabarConfig, id: string) => config.providers.some((e) => e.id === id && typeof e.account === "string");

const DASHBOARDS: Readonly<Record<string, string>> = Object.fromEntries(DESCRIPTORS.map((d) => [d.id, d.dashboardUrl]));

export async function runBar(request: BarRequest, deps: BarDependencies): Promise<BarResult> {
  const { env } = deps;
  const configPath = request.config ?? resolveConfigPath(env);
  // blocking reads: a poll reads a few small files, and the first asynchronous one would start libuv's thread pool
  const config = await new JsonConfigStore(configPath, { syncReads: true }).load();
  const cacheDir = resolveCacheDir(env);
  const store = new FileTextStore(cacheDir, undefined, { syncReads: true });
  const origins = env.QUOTABAR_ORIGIN_MAP ?? "";
  const snapshots = new LatestSnapshots(store, origins);
  let loaded: Promise<Core> | null = null;
  const core = () =>
    (loaded ??= deps.core?.() ?? import("../composition.js").then((m) => m.createCliCore({ config: request.config }, { env })));
  const fresh = (at: Date) => deps.now().getTime() - at.getTime() <= request.maxAgeMs;

  // which accounts to show: the enabled ones without -p, every account of a provider named alone that has
  // named accounts; worked out by the core (credential lookups) and kept like a snapshot, for --max-age
  const asked = request.providers;
  const expand = asked === null || asked.some((ref) => !ref.includes(":") && hasNamedAccounts(config, ref));
  const scope = originKey(JSON.stringify(asked === null ? [origins, configPath] : [origins, configPath, asked]));
  const selection = new KeptSelection(store, scope, asked === null ? undefined : `bar/selection-${scope}`);
  let ids = expand ? ((await selection.read(fresh))?.filter((ref) => parseAccountRef(ref).id in DASHBOARDS) ?? null) : asked;
  if (ids === null) {
    ids = (await (await core()).usage.select(config, asked ?? undefined)).map(accountRef);
    await selection.write(ids, deps.now()).catch(() => undefined);
  }

  const shown = new Map<string, ProviderUsage>();
  const due: string[] = [];
  for (const [i, latest] of (await Promise.all(ids.map((id) => snapshots.latest(parseAccountRef(id))))).entries()) {
    const id = ids[i] as string;
    // kept snapshots hold no pace (it is of a moment): the window's, now
    if (latest) shown.set(id, withPace(latest.usage, deps.now()));
    if (!latest || !fresh(latest.at)) due.push(id);
  }
  if (due.length > 0) {
    // at least the default per-provider budget (15 s): a lock older than a refresh can take was left by a poller that died
    const budgetMs = (config.timeoutSeconds ?? 60) * 1000;
    const refreshed = await refreshUnderLocks(due, {
      lockDir: join(cacheDir, "refresh"),
      holdMs: budgetMs + 30_000,
      reread: async (id) => {
        const latest = await snapshots.latest(parseAccountRef(id));
        return latest && fresh(latest.at) ? latest.usage : null;
      },
      refresh: async (stillDue) => {
        const doc = await (await core()).usage.usage({ providers: stillDue });
        // a failure is noted too, so pollers wait --max-age before asking that upstream again
        await Promise.all(doc.providers.filter((p) => !p.ok).map((p) => snapshots.noteFailure(p, deps.now()).catch(() => undefined)));
        return doc.providers;
      },
    });
    for (const usage of refreshed) shown.set(accountRef(keyOfUsage(usage)), usage);
  }

  const now = deps.now();
  const doc: UsageDocument = {
    version: 1,
    generatedAt: now.toISOString(),
    providers: ids.map((id) => shown.get(id)).filter((p): p is ProviderUsage => p !== undefined),
  };
  const options = { meter: request.meter, now, config, dashboards: DASHBOARDS };
  const output = BAR_FORMATS[request.format](doc, options);
  const urgent = request.format === "i3blocks" && barView(doc, options).level === "critical";
  return { output, exitCode: urgent ? I3BLOCKS_URGENT_EXIT : 0 };
}
