import { keyOfUsage, storageName, type AccountKey } from "../../domain/account.js";
import { tryJson } from "../../domain/decode-body.js";
import { METER_ROLES, type MeterRole } from "../../domain/meter.js";
import { sameWindow } from "../../domain/meter-window.js";
import type { Meter, ProviderUsage } from "../../domain/usage-document.js";
import type { TextStore } from "../../ports/text-store.js";
import type { HistoryPoint, MeterHistory, ProviderHistory, UsageHistory } from "../../ports/usage-history.js";
import { credentialScope } from "./credential-scope.js";
import { updateText } from "./update-text.js";

/** How much is kept per provider: the newest points within these bounds. */
export const HISTORY_LIMITS = { pointsPerMeter: 2_000, maxAgeMs: 35 * 24 * 3_600_000, maxBytes: 100_000 };

/** A point as stored: [epoch seconds, usedPercent, used, limit]; its reset time is its segment's. */
type StoredPoint = [number, number | null, number | null, number | null];
interface StoredSegment {
  n: number;
  resetsAt: string | null;
  points: StoredPoint[];
}
interface StoredMeter {
  label: string;
  unit: string | null;
  windowMinutes: number | null;
  segments: StoredSegment[];
}
interface StoredHistory {
  v: 1;
  /** Hash of the credential and origin map (never the credential), and of the origin map alone. */
  scope: string;
  origins: string;
  meters: Partial<Record<MeterRole, StoredMeter>>;
}

/**
 * The history port on a TextStore: `history/<provider>` (`<provider>@<account>` for a named account; a file in the cache directory for the CLI),
 * changed under the store's lock so that racing writers queue. Compact: each point is four numbers,
 * a flat run is kept as its first and last reading, and a window's reset time is written once.
 */
export class StoredUsageHistory implements UsageHistory {
  constructor(
    private readonly store: TextStore,
    /** What the requests went to (QUOTABAR_ORIGIN_MAP), so the simulator's numbers never mix with real ones. */
    private readonly origins = "",
    private readonly limits = HISTORY_LIMITS,
  ) {}

  async append(usage: ProviderUsage, credential: readonly string[]): Promise<ProviderHistory> {
    const scope = credentialScope(this.origins, credential);
    const atMs = usage.fetchedAt === null ? NaN : Date.parse(usage.fetchedAt);
    let kept: StoredHistory | null = null;
    await updateText(this.store, key(keyOfUsage(usage)), (text) => {
      const found = parse(text);
      const history: StoredHistory =
        found && found.scope === scope ? found : { v: 1, scope, origins: credentialScope(this.origins, []), meters: {} };
      kept = history;
      if (!Number.isFinite(atMs)) return null;
      for (const role of METER_ROLES) {
        const meter = usage[role];
        if (meter && !meter.unlimited && (meter.usedPercent !== null || meter.used !== null))
          history.meters[role] = appended(history.meters[role], meter, atMs);
      }
      bound(history, atMs, this.limits);
      return JSON.stringify(history);
    });
    return expand(keyOfUsage(usage), kept);
  }

  async read(account: AccountKey, credential?: readonly string[]): Promise<ProviderHistory> {
    const found = parse(await this.store.read(key(account)).catch(() => null));
    const belongs =
      found !== null &&
      (credential ? found.scope === credentialScope(this.origins, credential) : found.origins === credentialScope(this.origins, []));
    return expand(account, belongs ? found : null);
  }

  async remove(account: AccountKey): Promise<void> {
    await this.store.remove(key(account));
  }
}

const key = (account: AccountKey) => `history/${storageName(account)}`;

/** The meter's kept points with one reading more: a new segment when its window changed; a flat run keeps its ends only. */
function appended(stored: StoredMeter | undefined, meter: Meter, atMs: number): StoredMeter {
  const kept: StoredMeter = stored ?? { label: meter.label, unit: meter.unit, windowMinutes: meter.windowMinutes, segments: [] };
  const at = Math.round(atMs / 1000);
  const point: StoredPoint = [at, meter.usedPercent, meter.used, meter.limit];
  let segment = kept.segments.at(-1);
  const sameSegment =
    segment !== undefined && kept.label === meter.label && sameWindow(segment.resetsAt, meter.resetsAt, meter.windowMinutes);
  const lastAt = segment?.points.at(-1)?.[0];
  if (segment && lastAt !== undefined && at <= lastAt) {
    // read before the newest kept point but written after it (a slower process): put in its place, once
    if (sameSegment && !segment.points.some((p) => p[0] === at)) {
      const next = segment.points.findIndex((p) => p[0] > at);
      segment.points.splice(next === -1 ? segment.points.length : next, 0, point);
    }
    return kept;
  }
  if (!segment || !sameSegment) {
    segment = { n: segment ? segment.n + 1 : 0, resetsAt: meter.resetsAt, points: [] };
    kept.segments.push(segment);
  }
  Object.assign(kept, { label: meter.label, unit: meter.unit, windowMinutes: meter.windowMinutes });
  segment.resetsAt = meter.resetsAt;
  const [before, last] = segment.points.slice(-2);
  if (before && last && sameReading(before, point) && sameReading(last, point)) last[0] = at;
  else segment.points.push(point);
  return kept;
}

const sameReading = (a: StoredPoint, b: StoredPoint) => a[1] === b[1] && a[2] === b[2] && a[3] === b[3];

/** Drops what is older than the age limit, then the oldest past the count, then the oldest of the longest meter until the text fits. */
function bound(history: StoredHistory, nowMs: number, limits: typeof HISTORY_LIMITS): void {
  const oldest = Math.floor((nowMs - limits.maxAgeMs) / 1000);
  const meters = Object.values(history.meters);
  for (const meter of meters) {
    for (const segment of meter.segments) segment.points = segment.points.filter((p) => p[0] >= oldest);
    dropOldest(meter, count(meter) - limits.pointsPerMeter);
  }
  let size = JSON.stringify(history).length;
  while (size > limits.maxBytes && meters.length > 0) {
    const longest = meters.reduce((a, b) => (count(b) > count(a) ? b : a));
    if (count(longest) === 0) break;
    // a tenth at a time (at least one point), proportioned to how far over it is
    dropOldest(longest, Math.max(1, Math.ceil(count(longest) * Math.min(0.1, (size - limits.maxBytes) / size + 0.01))));
    size = JSON.stringify(history).length;
  }
}

const count = (meter: StoredMeter) => meter.segments.reduce((n, s) => n + s.points.length, 0);

function dropOldest(meter: StoredMeter, howMany: number): void {
  let left = howMany;
  for (const segment of meter.segments) {
    if (left <= 0) break;
    const taken = Math.min(left, segment.points.length);
    segment.points.splice(0, taken);
    left -= taken;
  }
  // the segment still being written stays, even empty, so its number goes on counting
  meter.segments = meter.segments.filter((s, i, all) => s.points.length > 0 || i === all.length - 1);
}

function expand({ id: provider, account }: AccountKey, history: StoredHistory | null): ProviderHistory {
  const meters: MeterHistory[] = [];
  for (const role of METER_ROLES) {
    const meter = history?.meters[role];
    if (!meter) continue;
    const points: HistoryPoint[] = meter.segments.flatMap((segment) =>
      segment.points.map(([at, usedPercent, used, limit]) => ({
        at: new Date(at * 1000).toISOString(),
        usedPercent,
        used,
        limit,
        resetsAt: segment.resetsAt,
        segment: segment.n,
      })),
    );
    meters.push({ meter: role, label: meter.label, unit: meter.unit, windowMinutes: meter.windowMinutes, points });
  }
  return { provider, account, meters };
}

const isNumberOrNull = (value: unknown) => value === null || (typeof value === "number" && Number.isFinite(value));
const isTextOrNull = (value: unknown) => value === null || typeof value === "string";

/** The stored history, or null when there is none or it is damaged (it is then started afresh). */
function parse(text: string | null): StoredHistory | null {
  const value = text === null ? null : tryJson(text);
  const h = value as StoredHistory;
  if (typeof h !== "object" || h === null || h.v !== 1 || typeof h.scope !== "string" || typeof h.origins !== "string") return null;
  if (typeof h.meters !== "object" || h.meters === null) return null;
  for (const role of Object.keys(h.meters)) {
    const meter = h.meters[role as MeterRole];
    if (!(METER_ROLES as readonly string[]).includes(role) || !validMeter(meter)) return null;
  }
  return h;
}

function validMeter(meter: unknown): meter is StoredMeter {
  const m = meter as StoredMeter;
  if (typeof m !== "object" || m === null || typeof m.label !== "string" || !isTextOrNull(m.unit) || !isNumberOrNull(m.windowMinutes))
    return false;
  if (!Array.isArray(m.segments)) return false;
  return m.segments.every(
    (s) =>
      typeof s === "object" &&
      s !== null &&
      Number.isSafeInteger(s.n) &&
      isTextOrNull(s.resetsAt) &&
      Array.isArray(s.points) &&
      s.points.every((p) => Array.isArray(p) && p.length === 4 && Number.isSafeInteger(p[0]) && p.slice(1).every(isNumberOrNull)),
  );
}
