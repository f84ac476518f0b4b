/** Readers for upstream bodies whose shape is only loosely known: searched, not decoded. */

export type JsonObject = Record<string, unknown>;

/** Recursive walks stop here, so a hostile body cannot exhaust the stack. */
export const MAX_DEPTH = 64;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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

/** The first object, depth first, that satisfies `test` (bounded depth). */
export function findObject(value: unknown, test: (candidate: JsonObject) => boolean, depth = 0): JsonObject | null {
  if (depth > MAX_DEPTH) return null;
  const children = Array.isArray(value) ? value : isObject(value) ? (test(value) ? null : Object.values(value)) : [];
  if (children === null) return value as JsonObject;
  for (const child of children) {
    const found = findObject(child, test, depth + 1);
    if (found) return found;
  }
  return null;
}

/** For each path in order, the first context that has it; the first value `read` accepts wins (`read` is told the path, to name it). */
export function firstAt<T>(
  contexts: readonly unknown[],
  paths: readonly string[],
  read: (value: unknown, path: string) => T | null,
): T | null {
  for (const path of paths) {
    const context = contexts.find((c) => valueAt(c, path) !== undefined);
    const value = context === undefined ? null : read(valueAt(context, path), path);
    if (value !== null) return value;
  }
  return null;
}
