import * as z from "../../domain/zod.js";
import type { KeptValues } from "../../ports/kept-values.js";
import { MAX_SERIES } from "./monitoring.js";
import type { QuotaSeries } from "./policy.js";

/**
 * The limit series, kept between runs so a refresh asks Cloud Monitoring for usage only: limits
 * change only when someone raises a quota. Kept with the project they belong to, since the
 * project (a variable, gcloud's configuration) can change while the credential stays.
 */

/** A raised limit shows within the hour; `quotabar cache clear -p vertexai` forgets them sooner. */
const LIMITS_TTL_MS = 3_600_000;
const KEPT_LIMITS = "limits";

/** What was written is read back from disk: anything not of this shape counts as absent. */
const Kept = z.object({
  project: z.string(),
  limits: z
    .array(
      z.object({
        quotaMetric: z.string().check(z.maxLength(1_000)),
        limitName: z.string().check(z.maxLength(1_000)),
        location: z.string().check(z.maxLength(1_000)),
        value: z.number().check(z.nonnegative()), // zod 4 refuses NaN and the infinities
      }),
    )
    .check(z.minLength(1), z.maxLength(MAX_SERIES)),
});

/** The project's kept limits, or null: none kept, kept for another project, expired or damaged. */
export async function keptLimits(kept: KeptValues, project: string): Promise<QuotaSeries[] | null> {
  const parsed = Kept.safeParse(await kept.read(KEPT_LIMITS));
  return parsed.success && parsed.data.project === project ? parsed.data.limits : null;
}

/** None kept when there are none: a project whose series are still to come would otherwise wait an hour for them. */
export async function keepLimits(kept: KeptValues, project: string, limits: QuotaSeries[]): Promise<void> {
  if (limits.length > 0) await kept.write(KEPT_LIMITS, { project, limits }, LIMITS_TTL_MS);
}
