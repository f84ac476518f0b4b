import type { BrowserCookie } from "../../ports/browser-credentials.js";
import type { Environment } from "../../ports/environment.js";
import {
  appFile,
  cleanSecret,
  isObject,
  MAX_DEPTH,
  nestsDeeperThan,
  toBool,
  toText,
  toTime,
  tryJson,
  type JsonObject,
} from "../kit/index.js";

/**
 * factory-session.json in quotabar's config directory: the cookies, bearer token and WorkOS refresh
 * token of a Factory session, kept between runs and refreshed as tokens are minted. CodexBar's shape:
 * `{"cookies":[{"Name","Value","Domain","Path","Expires","Expires_isDate","Secure"}],"bearerToken","refreshToken"}`,
 * any key absent; a bare array of cookies is the legacy form. Unknown keys survive every write.
 */
export const SESSION_FILE_NAME = "factory-session.json";

export interface FactorySession {
  /** Unexpired cookies, as a browser would hold them. */
  cookies: BrowserCookie[];
  bearerToken: string | null;
  refreshToken: string | null;
}

export type SessionRead =
  | { state: "absent"; path: string }
  | { state: "unreadable"; path: string; reason: string }
  | { state: "read"; path: string; session: FactorySession };

export const sessionPath = (env: Environment) => appFile(env, SESSION_FILE_NAME).path;

/** The file's content as an object (legacy array form included), or why it is not one. */
function parse(text: string): JsonObject | string {
  const value = tryJson(text);
  if (Array.isArray(value)) return nestsDeeperThan(value, MAX_DEPTH) ? "it nests too deep" : { cookies: value };
  if (!isObject(value)) return "it is not a JSON object";
  return nestsDeeperThan(value, MAX_DEPTH) ? "it nests too deep" : value;
}

/** A cookie as CodexBar stores it (`Name`, `Value`, ...), lower-case keys accepted too; null when it has no name or has expired. */
function cookieOf(raw: unknown, now: Date): BrowserCookie | null {
  if (!isObject(raw)) return null;
  const field = (name: string) => raw[name] ?? raw[name.toLowerCase()];
  const name = toText(field("Name"));
  const value = typeof field("Value") === "string" ? (field("Value") as string) : null;
  if (!name || value === null) return null;
  const expiresAt = toTime(field("Expires") ?? field("ExpiresDate"));
  if (expiresAt !== null && Date.parse(expiresAt) <= now.getTime()) return null;
  const domain = toText(field("Domain")) ?? "app.factory.ai";
  return {
    name,
    value,
    domain,
    hostOnly: !domain.startsWith("."),
    path: toText(field("Path")) ?? "/",
    expiresAt,
    secure: toBool(field("Secure")) ?? true,
  };
}

export async function readSession(env: Environment, now: Date): Promise<SessionRead> {
  const file = appFile(env, SESSION_FILE_NAME);
  let text: string | null;
  try {
    text = await file.read();
  } catch (error) {
    return { state: "unreadable", path: file.path, reason: (error as Error).message };
  }
  if (text === null) return { state: "absent", path: file.path };
  const raw = parse(text);
  if (typeof raw === "string") return { state: "unreadable", path: file.path, reason: raw };
  const cookies = Array.isArray(raw.cookies) ? raw.cookies.map((c) => cookieOf(c, now)).filter((c): c is BrowserCookie => c !== null) : [];
  return {
    state: "read",
    path: file.path,
    session: { cookies, bearerToken: cleanSecret(raw.bearerToken), refreshToken: cleanSecret(raw.refreshToken) },
  };
}

/** What a run changes in the session: set a field (null removes it). */
export interface SessionChange {
  cookies?: readonly BrowserCookie[] | null;
  bearerToken?: string | null;
  refreshToken?: string | null;
  /** Change nothing unless the file still holds this token (another run may have refreshed it meanwhile). */
  unlessReplaced?: { bearerToken?: string; refreshToken?: string };
}

const storedCookie = (c: BrowserCookie) => ({
  Name: c.name,
  Value: c.value,
  Domain: c.domain,
  Path: c.path,
  Secure: c.secure,
  ...(c.expiresAt ? { Expires: Math.floor(Date.parse(c.expiresAt) / 1000), Expires_isDate: true } : {}),
});

/**
 * Writes the change atomically, owner-only. A file that is there but does not parse is never
 * written over (false): what it holds may still be worth something to the user.
 */
export async function updateSession(env: Environment, change: SessionChange): Promise<boolean> {
  const file = appFile(env, SESSION_FILE_NAME);
  const text = await file.read().catch(() => undefined);
  if (text === undefined) return false;
  const raw = text === null ? {} : parse(text);
  if (typeof raw === "string") return false;
  const held = change.unlessReplaced ?? {};
  if (
    (held.bearerToken && cleanSecret(raw.bearerToken) !== held.bearerToken) ||
    (held.refreshToken && cleanSecret(raw.refreshToken) !== held.refreshToken)
  )
    return false;
  const next: JsonObject = { ...raw };
  const set = (key: string, value: unknown) => {
    if (value === null) delete next[key];
    else if (value !== undefined) next[key] = value;
  };
  set("cookies", change.cookies === undefined || change.cookies === null ? change.cookies : change.cookies.map(storedCookie));
  set("bearerToken", change.bearerToken);
  set("refreshToken", change.refreshToken);
  await file.write(`${JSON.stringify(next, null, 2)}\n`);
  return true;
}
