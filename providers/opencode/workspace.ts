import { cleanSecret, findObject, isObject, MAX_DEPTH, type CredentialContext } from "../kit/index.js";

const WORKSPACE_ID = /^wrk_[A-Za-z0-9]+$/;
const WORKSPACE_ID_IN_TEXT = /wrk_[A-Za-z0-9]+/;

const isWorkspaceId = (value: unknown): value is string => typeof value === "string" && WORKSPACE_ID.test(value);

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
