import * as z from "../../domain/zod.js";
import { countProblem, percentProblem, ratioProblem, toBool, toNumber, toTime } from "../../domain/coerce.js";

/** zod fields for upstream values in their loose real-world shapes (built on domain/coerce). */

/** A number, or a string holding one; anything else fails with the field's name. */
export const zNumber = z.pipe(
  z.transform((value: unknown) => toNumber(value) ?? value),
  z.number(),
);

/** A `zNumber` that `problem` accepts; what it refuses fails with the field's name and the problem. */
const zChecked = (problem: (value: number) => string | null) =>
  zNumber.check(z.refine((value: number) => problem(value) === null, { error: (issue) => problem(issue.input as number) ?? "invalid" }));

/** A count (used, a limit, what is left, credits, a balance that cannot go below zero): never negative. */
export const zCount = zChecked(countProblem);

/** A percent as the upstream sends it: 0..100. */
export const zPercent = zChecked(percentProblem);

/** A fraction of a quota: 0..1. */
export const zRatio = zChecked(ratioProblem);

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
