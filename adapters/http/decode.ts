import { z } from "zod";
import { parseError } from "../../domain/errors.js";

/** Numbers as upstreams send them: JSON numbers or numeric strings. */
export const looseNumber = z.preprocess(
  (value) => (typeof value === "string" && /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/.test(value) ? Number(value) : value),
  z.number(),
);

/** Parse a JSON body against a schema; a failure names the field ("data.total_credits: expected number"). */
export function decodeJson<T extends z.ZodType>(body: string, schema: T, service: string): z.output<T> {
  if (body.trim() === "") throw parseError(`Failed to parse ${service} response: empty body`);
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    throw parseError(
      `Failed to parse ${service} response: the body is not JSON`,
      `${service} may have changed its API, or a proxy answered instead.`,
    );
  }
  return decodeValue(raw, schema, service);
}

export function decodeValue<T extends z.ZodType>(raw: unknown, schema: T, service: string): z.output<T> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length
    ? issue.path
        .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
        .join("")
        .replace(/^\./, "")
    : "body";
  throw parseError(
    `Failed to parse ${service} response: ${field}: ${issue?.message ?? "invalid"}`,
    `${service} may have changed its API; please report it.`,
  );
}
