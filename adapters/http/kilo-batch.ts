import { QuotabarError } from "../../domain/errors.js";
import { isObject, textOf, type JsonObject } from "./tolerant-json.js";

/** What one procedure of a tRPC batch answered. */
export type ProcedureResult = { kind: "payload"; payload: unknown } | { kind: "error"; code: string | null; message: string | null };

const PARSE_HINT = "Response format may have changed.";

export const kiloParseError = (detail: string) =>
  new QuotabarError("parse", `Failed to parse Kilo API response: ${detail}`, { hint: PARSE_HINT });

/**
 * A tRPC batch body as an array indexed by procedure. Accepted (reference section 3.3): a JSON
 * array, one element object (`result` / `error`), or an object keyed by index ("0", "2").
 */
export function decodeTrpcBatch(body: string, count: number): (ProcedureResult | null)[] {
  let root: unknown;
  try {
    root = JSON.parse(body);
  } catch {
    throw kiloParseError("the body is not JSON");
  }
  let elements: unknown[];
  if (Array.isArray(root)) elements = root.slice(0, count);
  else if (isObject(root) && ("result" in root || "error" in root)) elements = [root];
  else if (isObject(root) && Object.keys(root).some((key) => /^\d+$/.test(key))) {
    elements = Array.from({ length: count }, (_, index) => root[String(index)]);
  } else throw kiloParseError("Unexpected tRPC batch shape");
  return Array.from({ length: count }, (_, index) => procedureResult(elements[index], index));
}

function procedureResult(element: unknown, index: number): ProcedureResult | null {
  if (element === undefined || element === null) return null;
  if (!isObject(element)) throw kiloParseError(`[${index}]: expected an object`);
  if (isObject(element.error)) return errorOf(element.error);
  const result = element.result;
  if (!isObject(result)) return null;
  // result.data.json (superjson); else result.data itself; else result.json. A JSON null means "no payload".
  if (isObject(result.data) && "json" in result.data) return { kind: "payload", payload: result.data.json };
  if ("data" in result) return { kind: "payload", payload: result.data };
  return { kind: "payload", payload: result.json };
}

function errorOf(error: JsonObject): ProcedureResult {
  const json = isObject(error.json) ? error.json : {};
  const nested = (value: unknown) => (isObject(value) ? textOf(value.code) : null);
  return {
    kind: "error",
    code: nested(json.data) ?? nested(error.data) ?? textOf(error.code) ?? textOf(json.code),
    message: textOf(json.message) ?? textOf(error.message),
  };
}

/** A procedure's error as the user sees it: auth problems fall back to the CLI session in auto mode. */
export function trpcError(procedure: string, result: Extract<ProcedureResult, { kind: "error" }>): QuotabarError {
  const text = `${result.code ?? ""} ${result.message ?? ""}`.toLowerCase();
  if (text.includes("unauthorized") || text.includes("forbidden")) {
    return new QuotabarError(text.includes("unauthorized") ? "unauthorized" : "forbidden", KILO_AUTH_FAILED, { hint: KILO_AUTH_HINT });
  }
  if (text.includes("not_found") || text.includes("not found")) {
    return new QuotabarError("upstream", KILO_NOT_FOUND, { hint: "Kilo may have renamed its API; please report it." });
  }
  return kiloParseError(`${procedure} returned a tRPC error (${result.code ?? result.message ?? "no code"})`);
}

export const KILO_AUTH_FAILED = "Kilo authentication failed (401/403). Refresh KILO_API_KEY or run `kilo login`.";
export const KILO_AUTH_HINT =
  "Replace the key with `quotabar config set-key kilo --stdin` (providers[kilo].apiKey) or KILO_API_KEY, or run `kilo login` for the CLI session.";
export const KILO_NOT_FOUND = "Kilo API endpoint not found (404). Verify the tRPC batch path and procedure names.";
