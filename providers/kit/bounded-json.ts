import { parseJson } from "../../domain/decode-body.js";
import { parseError } from "../../domain/errors.js";
import { advice } from "../../domain/remedy.js";
import { MAX_DEPTH } from "./search.js";

/** Whether objects and arrays nest more than `limit` levels deep; a loop, not recursion, so any depth is safe. */
export function nestsDeeperThan(root: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[root, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, level] = next;
    if (typeof value !== "object" || value === null) continue;
    if (level > limit) return true;
    for (const child of Array.isArray(value) ? value : Object.values(value)) pending.push([child, level + 1]);
  }
  return false;
}

/**
 * JSON text as a value, refused with a parse error when it nests deeper than MAX_DEPTH, so the
 * recursive readers after it (snakeKeys, schemas) never meet a body they would cut or overflow on.
 */
export function parseBoundedJson(body: string, service: string): unknown {
  const value = parseJson(body, service);
  if (nestsDeeperThan(value, MAX_DEPTH)) {
    throw parseError(
      `Failed to parse ${service} response: it nests deeper than ${MAX_DEPTH} levels`,
      advice(`${service} may have changed its API, or a proxy answered instead.`),
    );
  }
  return value;
}
