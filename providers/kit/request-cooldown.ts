import { QuotabarError } from "../../domain/errors.js";
import { secretsOf } from "../../domain/scoped-http.js";
import type { FetchStrategy } from "../../ports/fetch-strategy.js";
import { providerCache } from "./cache-file.js";

/**
 * An endpoint that rate-limits hard is asked at most once per `minIntervalMs` per credential,
 * whatever polls it (a status bar every 10 s, `watch`, `serve`, Raycast each minute, in several
 * processes at once), and not at all while a 429 cools down. The state is one file per endpoint in
 * the cache directory (`cooldown/<name>.json`), an entry per credential keyed as the snapshot cache
 * is (a hash of the credential and the origin map, never the credential), updated under its lock,
 * so every process shares it and several credentials (accounts) keep theirs side by side.
 */
export interface RequestCooldown {
  /** The endpoint's file name ("claude-oauth-usage"). */
  name: string;
  /** Who is asked, for messages ("Claude's usage endpoint"). */
  service: string;
  minIntervalMs: number;
  /** After a 429 without Retry-After. */
  defaultCooldownMs: number;
}

interface Wait {
  until: number;
  /** A 429 set it (else the minimum interval did). */
  rateLimited: boolean;
  /** The last answer, when it was one: answered again until the wait is over. */
  reading?: unknown;
  /** The last answer's error, redacted, when it was one: said again until the wait is over. */
  error?: { code: QuotabarError["code"]; message: string; remedies: QuotabarError["remedies"] };
}

/**
 * The strategy, asking its upstream at most as `options` allow. Inside the minimum interval the last
 * reading is answered again (it is at most that old); during a 429's cooldown, or after a failure
 * inside the interval, it throws (`rate_limited` with the time of the next try, or the same error)
 * and the usage service serves the last snapshot stale, as for any failure: no request is made.
 */
export function withRequestCooldown<Credential, Reading>(
  strategy: FetchStrategy<Credential, Reading>,
  options: RequestCooldown,
): FetchStrategy<Credential, Reading> {
  const key = `cooldown/${options.name}`;
  return {
    ...strategy,
    async fetch(credential, context) {
      const now = context.now().getTime();
      const { credentialScope } = await import("../../adapters/cache/credential-scope.js");
      const scope = credentialScope(context.env.QUOTABAR_ORIGIN_MAP ?? "", secretsOf(credential));
      const store = providerCache(context.env);
      const keep = (wait: Wait) =>
        (store.update
          ? store.update(key, (text) => withEntry(text, scope, wait, now))
          : store.write(key, withEntry(null, scope, wait, now))
        ).catch(() => undefined);
      const wait = entryOf(await store.read(key).catch(() => null), scope);
      if (wait && wait.until > now) {
        if (wait.rateLimited) throw coolingDown(options.service, wait.until, now);
        if (wait.error) throw new QuotabarError(wait.error.code, wait.error.message, { remedies: wait.error.remedies });
        if (wait.reading !== undefined) return wait.reading as Reading;
      }
      // claimed before asking, with the last answer kept: a process that starts meanwhile gives that again
      const { reading: lastReading, error: lastError } = wait ?? {};
      await keep({
        until: now + options.minIntervalMs,
        rateLimited: false,
        ...(lastReading !== undefined ? { reading: lastReading } : {}),
        ...(lastError ? { error: lastError } : {}),
      });
      try {
        const reading = await strategy.fetch(credential, context);
        await keep({ until: now + options.minIntervalMs, rateLimited: false, reading });
        return reading;
      } catch (thrown) {
        if (!(thrown instanceof QuotabarError)) throw thrown;
        if (thrown.code === "rate_limited") {
          const waitMs = thrown.retryAfterSeconds !== undefined ? thrown.retryAfterSeconds * 1000 : options.defaultCooldownMs;
          const until = now + Math.max(waitMs, options.minIntervalMs);
          await keep({ until, rateLimited: true });
          throw coolingDown(options.service, until, now, thrown.status);
        }
        const error = { code: thrown.code, message: context.http.excerpt(thrown.message, { maxChars: 400 }), remedies: thrown.remedies };
        await keep({ until: now + options.minIntervalMs, rateLimited: false, error });
        throw thrown;
      }
    },
  };
}

/** The error of a cooldown: when the next try is, and nothing to do but wait. */
function coolingDown(service: string, until: number, now: number, status?: number): QuotabarError {
  const afterSeconds = Math.max(1, Math.ceil((until - now) / 1000));
  return new QuotabarError("rate_limited", `${service} is rate limited; next try at ${new Date(until).toISOString()}`, {
    remedies: [{ kind: "retry", afterSeconds }],
    retryAfterSeconds: afterSeconds,
    ...(status !== undefined ? { status } : {}),
  });
}

/** Every credential's entry, from the file's text; a damaged file reads as empty. */
function entries(text: string | null): Record<string, Wait> {
  try {
    const value: unknown = text ? JSON.parse(text) : null;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, Wait>) : {};
  } catch {
    return {};
  }
}

function entryOf(text: string | null, scope: string): Wait | null {
  const wait = entries(text)[scope];
  if (typeof wait !== "object" || wait === null || typeof wait.until !== "number" || typeof wait.rateLimited !== "boolean") return null;
  const error = wait.error;
  const known = error && typeof error.code === "string" && typeof error.message === "string" && Array.isArray(error.remedies);
  return {
    until: wait.until,
    rateLimited: wait.rateLimited,
    ...(known ? { error } : {}),
    ...("reading" in wait ? { reading: wait.reading } : {}),
  };
}

/** The file with this credential's entry set and the entries whose wait is over dropped. */
function withEntry(text: string | null, scope: string, wait: Wait, now: number): string {
  const kept = Object.entries(entries(text)).filter(
    ([other, entry]) => other !== scope && typeof entry?.until === "number" && entry.until > now,
  );
  return JSON.stringify(Object.fromEntries([...kept, [scope, wait]]));
}
