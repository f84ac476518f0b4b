import { QuotabarError } from "../../domain/errors.js";
import type { FetchContext } from "../../ports/fetch-context.js";
import type { FetchStrategy } from "../../ports/fetch-strategy.js";

/**
 * An endpoint that rate-limits hard is asked at most once per `minIntervalMs` per credential,
 * whatever polls it (a status bar every 10 s, `watch`, `serve`, Raycast each minute, in several
 * processes at once), and not at all while a 429 cools down. The state lives in the kept values:
 * the cache directory, scoped by the credential and origin map as the snapshot cache is, so every
 * process shares it.
 */
export interface RequestCooldown {
  /** The kept values' name prefix ("usage"). */
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
  const waitKey = `${options.name}:wait`;
  const readingKey = `${options.name}:reading`;
  return {
    ...strategy,
    async fetch(credential, context) {
      const now = context.now().getTime();
      const wait = asWait(await context.kept.read(waitKey).catch(() => null));
      if (wait && wait.until > now) {
        if (wait.rateLimited) throw coolingDown(options.service, wait.until, now);
        if (wait.error) throw new QuotabarError(wait.error.code, wait.error.message, { remedies: wait.error.remedies });
        const reading = await context.kept.read(readingKey).catch(() => null);
        if (reading !== null) return reading as Reading;
      }
      // claimed before asking, so a process that starts meanwhile waits too
      await keep(context, waitKey, { until: now + options.minIntervalMs, rateLimited: false }, options.minIntervalMs);
      try {
        const reading = await strategy.fetch(credential, context);
        await context.kept.write(readingKey, reading, options.minIntervalMs).catch(() => undefined);
        return reading;
      } catch (thrown) {
        if (!(thrown instanceof QuotabarError)) throw thrown;
        if (thrown.code === "rate_limited") {
          const waitMs = thrown.retryAfterSeconds !== undefined ? thrown.retryAfterSeconds * 1000 : options.defaultCooldownMs;
          const until = now + Math.max(waitMs, options.minIntervalMs);
          await keep(context, waitKey, { until, rateLimited: true }, until - now);
          throw coolingDown(options.service, until, now, thrown.status);
        }
        const error = { code: thrown.code, message: context.http.excerpt(thrown.message, { maxChars: 400 }), remedies: thrown.remedies };
        await keep(context, waitKey, { until: now + options.minIntervalMs, rateLimited: false, error }, options.minIntervalMs);
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

async function keep(context: FetchContext, key: string, wait: Wait, ttlMs: number): Promise<void> {
  await context.kept.write(key, wait, ttlMs).catch(() => undefined);
}

function asWait(value: unknown): Wait | null {
  if (typeof value !== "object" || value === null) return null;
  const { until, rateLimited, error } = value as Partial<Wait>;
  if (typeof until !== "number" || typeof rateLimited !== "boolean") return null;
  const known =
    error && typeof error.code === "string" && typeof error.message === "string" && Array.isArray(error.remedies) ? error : undefined;
  return { until, rateLimited, ...(known ? { error: known } : {}) };
}
