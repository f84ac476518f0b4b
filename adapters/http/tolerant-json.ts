/** Small readers for upstreams whose body shape is only loosely known (searched, not decoded). */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A finite JSON number, or a string holding one ("2048", " 12.5 "); anything else is null. */
export function numberOf(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/.test(value)) return Number(value);
  return null;
}

/** A trimmed non-empty string, else null. */
export function textOf(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** The value at a dotted path (`usage.total`); undefined when some step is missing or not an object. */
export function valueAt(root: unknown, path: string): unknown {
  let current: unknown = root;
  for (const key of path.split(".")) {
    if (!isObject(current) || !(key in current)) return undefined;
    current = current[key];
  }
  return current;
}
