import type { z } from "zod";
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
export function decodeJson<T extends z.ZodType>(body: string, schema: T, service: string): z.output<T> {
  return decodeValue(parseJson(body, service), schema, service);
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
    advice(`${service} may have changed its API; please report it.`),
  );
}

/** JSON text, or null when it is not JSON (for bodies that may legitimately be something else). */
export function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
