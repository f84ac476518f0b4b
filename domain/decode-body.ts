import type * as z from "./zod.js";
import { countProblem } from "./coerce.js";
import { parseError } from "./errors.js";
import { advice } from "./remedy.js";

const changedApi = (service: string) => advice(`${service} may have changed its API, or a proxy answered instead.`);

/** JSON text as a value; "empty body" and "not JSON" are parse errors that name the service. */
export function parseJson(body: string, service: string): unknown {
  if (body.trim() === "") throw parseError(`Failed to parse ${service} response: empty body`, changedApi(service));
  try {
    return JSON.parse(body);
  } catch {
    throw parseError(`Failed to parse ${service} response: the body is not JSON`, changedApi(service));
  }
}

/** A body against its schema; a failure names the field ("data.total_credits: expected number"). */
export function decodeJson<T extends z.ZodMiniType>(body: string, schema: T, service: string): z.output<T> {
  return decodeValue(parseJson(body, service), schema, service);
}

export function decodeValue<T extends z.ZodMiniType>(raw: unknown, schema: T, service: string): z.output<T> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length
    ? issue.path
        .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
        .join("")
        .replace(/^\./, "")
    : "body";
  throw fieldError(service, field, issue?.message ?? "invalid");
}

/** The parse error for one field of an upstream body: "Failed to parse <service> response: <field>: <problem>". */
export function fieldError(service: string, field: string, problem: string) {
  return parseError(
    `Failed to parse ${service} response: ${field}: ${problem}`,
    advice(`${service} may have changed its API; please report it.`),
  );
}

/**
 * A number read without a schema, checked by `problem` (`countProblem`, `percentProblem`,
 * `ratioProblem` of domain/coerce): null stays null, an impossible one is a parse error naming the field.
 */
export function checked(value: number | null, problem: (value: number) => string | null, field: string, service: string): number | null {
  const found = value === null ? null : problem(value);
  if (found !== null) throw fieldError(service, field, found);
  return value;
}

/** A count read without a schema (`checked` with `countProblem`): below zero is a parse error naming the field. */
export const checkedCount = (value: number | null, field: string, service: string): number | null =>
  checked(value, countProblem, field, service);

/** JSON text, or null when it is not JSON (for bodies that may legitimately be something else). */
export function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
