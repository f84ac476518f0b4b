import { z } from "zod";
import { toBool, toNumber, toTime } from "../../domain/coerce.js";

/** zod fields for upstream values in their loose real-world shapes (built on domain/coerce). */

/** A number, or a string holding one; anything else fails with the field's name. */
export const zNumber = z.preprocess((value) => toNumber(value) ?? value, z.number());

/** A boolean from true/false, 1/0 or their strings; anything else (null included) is false. */
export const zFlag = z.unknown().transform((value) => toBool(value) ?? false);

/** A time in any shape (epoch s/ms, numeric text, ISO) as ISO-8601 UTC, or null. */
export const zTime = z.unknown().transform((value) => toTime(value));
