import { cleanSecret, findObject, isObject, MAX_DEPTH, type CredentialContext } from "../kit/index.js";

const WORKSPACE_ID = /^wrk_[A-Za-z0-9]+$/;
const WORKSPACE_ID_IN_TEXT = /wrk_[A-Za-z0-9]+/;

/** Far longer than an id (`wrk_` and a 26-character ULID): a longer string is no id, whatever it holds. */
const MAX_ID_CHARS = 64;

const isWorkspaceId = (value: unknown): value is string =>
  typeof value === "string" && value.length <= MAX_ID_CHARS && WORKSPACE_ID.test(value);

/** A workspace id read back from the cache (any JSON): the id, when it is one. */
export const asWorkspaceId = (value: unknown): string | null => (isWorkspaceId(value) ? value : null);

/** The workspace of the config's `workspaceID`: an id, or a dashboard URL (or any text) holding one. */
export function workspaceOverride(context: CredentialContext): string | null {
  const text = cleanSecret(context.entry.workspaceID);
  return text === null ? null : (WORKSPACE_ID_IN_TEXT.exec(text)?.[0] ?? null);
}

/** The first workspace id of a listing: an object's `id` first, else any `wrk_...` string in it. */
export function firstWorkspaceId(values: unknown[]): string | null {
  const holder = findObject(values, (o) => isWorkspaceId(o.id));
  return holder ? (holder.id as string) : firstIdString(values, 0);
}

function firstIdString(value: unknown, depth: number): string | null {
  if (isWorkspaceId(value)) return value;
  if (depth > MAX_DEPTH || (!Array.isArray(value) && !isObject(value))) return null;
  for (const child of Array.isArray(value) ? value : Object.values(value)) {
    const found = firstIdString(child, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
