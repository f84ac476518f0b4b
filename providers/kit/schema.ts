import * as z from "../../domain/zod.js";
import { countProblem, leftProblem, percentProblem, ratioProblem, toBool, toNumber, toTime } from "../../domain/coerce.js";

/** zod fields for upstream values in their loose real-world shapes (built on domain/coerce). */

/** A number, or a string holding one; anything else fails with the field's name. */
export const zNumber = z.pipe(
  z.transform((value: unknown) => toNumber(value) ?? value),
  z.number(),
);

/** A `zNumber` that `problem` accepts; what it refuses fails with the field's name and the problem. */
const zChecked = (problem: (value: number) => string | null) =>
  zNumber.check(z.refine((value: number) => problem(value) === null, { error: (issue) => problem(issue.input as number) ?? "invalid" }));

/** A count (used, a limit, a total, credits, a balance that cannot go below zero): never negative, at most 10^15. */
export const zCount = zChecked(countProblem);

/** A percent used as the upstream sends it: never negative; above 100 is a full meter (domain/coerce's rule). */
export const zPercent = zChecked(percentProblem);

/** A fraction used of a quota: never negative; above 1 is a full meter. */
export const zRatio = zChecked(ratioProblem);

/** What is left (a count, a percent or a fraction): below zero past the quota, above the whole with nothing used; only no number is refused. */
export const zLeft = zChecked(leftProblem);

/** A boolean from true/false, 1/0 or their strings; anything else (null included) is false. */
export const zFlag = z.pipe(
  z.unknown(),
  z.transform((value) => toBool(value) ?? false),
);

/** A time in any shape (epoch s/ms, numeric text, ISO) as ISO-8601 UTC, or null. */
export const zTime = z.pipe(
  z.unknown(),
  z.transform((value) => toTime(value)),
);
