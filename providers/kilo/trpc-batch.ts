import { isObject, toText, tryJson, type JsonObject, type QuotabarError } from "../kit/index.js";
import { authFailed, endpointNotFound, kiloParseError } from "./errors.js";

const TRPC_BASE = "https://app.kilo.ai/api/trpc";
/** Batched in one call, in this order: credit blocks (required), Kilo Pass (required), auto top-up (optional). */
export const KILO_PROCEDURES = ["user.getCreditBlocks", "kiloPass.getState", "user.getAutoTopUpPaymentMethod"] as const;

/** `GET /api/trpc/a,b,c?batch=1&input={"0":{"json":null},...}`: procedures without input, batched. */
export function trpcBatchUrl(procedures: readonly string[]): string {
  const input = Object.fromEntries(procedures.map((_, index) => [String(index), { json: null }]));
  const query = new URLSearchParams({ batch: "1", input: JSON.stringify(input) });
  return `${TRPC_BASE}/${procedures.join(",")}?${query.toString()}`;
}

/** The usage call: the three procedures above. */
export const kiloBatchUrl = (): string => trpcBatchUrl(KILO_PROCEDURES);

/** What one procedure of a tRPC batch answered. */
export type ProcedureResult = { kind: "payload"; payload: unknown } | { kind: "error"; code: string | null; message: string | null };

/**
 * A tRPC batch body as an array indexed by procedure. Accepted: a JSON array, one element object
 * (`result` / `error`), or an object keyed by index ("0", "2").
 */
export function decodeTrpcBatch(body: string, count: number): (ProcedureResult | null)[] {
  const root = tryJson(body);
  // a literal `null` is JSON, just not a batch
  if (root === null && body.trim() !== "null") throw kiloParseError("the body is not JSON");
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
  if (isObject(element.error)) return procedureError(element.error);
  const result = element.result;
  if (!isObject(result)) return null;
  // result.data.json (superjson); else result.data itself; else result.json. A JSON null means "no payload".
  if (isObject(result.data) && "json" in result.data) return { kind: "payload", payload: result.data.json };
  if ("data" in result) return { kind: "payload", payload: result.data };
  return { kind: "payload", payload: result.json };
}

function procedureError(error: JsonObject): ProcedureResult {
  const json = isObject(error.json) ? error.json : {};
  const nested = (value: unknown) => (isObject(value) ? toText(value.code) : null);
  return {
    kind: "error",
    code: nested(json.data) ?? nested(error.data) ?? toText(error.code) ?? toText(json.code),
    message: toText(json.message) ?? toText(error.message),
  };
}

/** A procedure's error as the user sees it: auth problems fall back to the CLI session in auto mode. */
export function trpcError(procedure: string, result: Extract<ProcedureResult, { kind: "error" }>): QuotabarError {
  const text = `${result.code ?? ""} ${result.message ?? ""}`.toLowerCase();
  if (text.includes("unauthorized")) return authFailed("unauthorized");
  if (text.includes("forbidden")) return authFailed("forbidden");
  if (text.includes("not_found") || text.includes("not found")) return endpointNotFound();
  return kiloParseError(`${procedure} returned a tRPC error (${result.code ?? result.message ?? "no code"})`);
}
