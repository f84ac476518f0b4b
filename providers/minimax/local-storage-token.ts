import { isObject, MAX_DEPTH, toText, tryJson } from "../kit/index.js";

/**
 * The MiniMax web app's access token (a JWT) and group id in its Local Storage, read the way the
 * reference describes the first tier of MiniMax's importer: named token fields by pattern, a walk
 * of JSON values (JSON inside strings too), and any JWT-shaped text.
 */

/** Values are scanned up to this many characters: Local Storage is untrusted, and tokens are short. */
export const MAX_SCANNED_CHARS = 256 * 1024;
const TOKEN_KEYS = new Set(["access_token", "accessToken", "id_token", "idToken", "token", "authToken", "authorization", "bearer"]);
const NAMED_TOKEN = /(?:access_token|accessToken|id_token|idToken)["'\\\s:=]{1,8}([\w.+=/-]{20,})/g;
const JWT = /^[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,}$/;
/** Text split where a JWT cannot go on: each piece is tested whole, so the scan stays linear. */
const NOT_JWT_CHARS = /[^\w.-]+/;
const TOKEN_CHARS = /^[\w.+=/-]+$/;
const LONG = 60;
const GROUP_CLAIMS = ["group_id", "groupId", "groupID", "gid", "tenant_id", "tenantId", "org_id", "orgId"];
const MINIMAX_CLAIMS = ["GroupID", "GroupName", "UserName", "SubjectID", "Mail", "TokenType"];
const GROUP_MARKER = /(?:groupId|group_id)\\?"\s*:\s*\\?"?(\d{4,})/i;

/** At least 60 characters, and a dotted three-part string or token characters only. */
const looksLikeToken = (text: string) => text.length >= LONG && (text.split(".").length === 3 || TOKEN_CHARS.test(text));

/** A JWT's payload claims (no signature check: the token is only sent back to MiniMax); null when it is not one. */
export function jwtClaims(token: string): Record<string, unknown> | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const payload = tryJson(Buffer.from(parts[1] as string, "base64url").toString("utf8"));
  return isObject(payload) ? payload : null;
}

/** MiniMax's own JWTs: an issuer naming MiniMax, or one of the claims its tokens carry. */
export function isMiniMaxJwt(token: string): boolean {
  const claims = jwtClaims(token);
  if (!claims) return false;
  return (
    String(claims.iss ?? "")
      .toLowerCase()
      .includes("minimax") || MINIMAX_CLAIMS.some((claim) => claim in claims)
  );
}

/** The group id a JWT names: the usual claims first, then any claim with "group" in its name. */
export function groupIdOfJwt(token: string): string | null {
  const claims = jwtClaims(token);
  if (!claims) return null;
  const names = [...GROUP_CLAIMS, ...Object.keys(claims).filter((name) => name.toLowerCase().includes("group"))];
  for (const name of names) {
    const value = groupDigits(claims[name]);
    if (value) return value;
  }
  return null;
}

const groupDigits = (value: unknown): string | null => {
  const text = typeof value === "number" && Number.isSafeInteger(value) ? String(value) : toText(value);
  return text !== null && /^\d{4,}$/.test(text) ? text : null;
};

/** Strings under token-named keys, and group ids under keys naming a group, of a JSON value (JSON inside strings parsed too; bounded depth). */
function walk(value: unknown, found: { tokens: string[]; groups: string[] }, depth = 0): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === "string") {
    const text = value.trim();
    if (text.startsWith("{") || text.startsWith("[")) walk(tryJson(text.slice(0, MAX_SCANNED_CHARS)), found, depth + 1);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) walk(item, found, depth + 1);
    return;
  }
  if (!isObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    if (TOKEN_KEYS.has(key) && typeof child === "string" && looksLikeToken(child.replace(/^Bearer\s+/i, ""))) {
      found.tokens.push(child.replace(/^Bearer\s+/i, ""));
    }
    const group = key.toLowerCase().includes("group") ? groupDigits(child) : null;
    if (group) found.groups.push(group);
    walk(child, found, depth + 1);
  }
}

/** The access tokens (long ones only, when there are any; MiniMax's own JWTs first) and the group id in one profile's Local Storage items. */
export function minimaxTokens(items: readonly { key: string; value: string }[]): { tokens: string[]; groupId: string | null } {
  const found = { tokens: [] as string[], groups: [] as string[] };
  for (const { key, value } of items) {
    const text = value.slice(0, MAX_SCANNED_CHARS);
    if (TOKEN_KEYS.has(key) && looksLikeToken(text.trim())) found.tokens.push(text.trim());
    for (const match of text.matchAll(NAMED_TOKEN)) found.tokens.push(match[1] as string);
    walk(text, found);
    for (const piece of text.split(NOT_JWT_CHARS)) if (JWT.test(piece)) found.tokens.push(piece);
    const marker = GROUP_MARKER.exec(text)?.[1];
    if (marker) found.groups.push(marker);
  }
  const unique = [...new Set(found.tokens)];
  const long = unique.filter((token) => token.length >= LONG);
  const tokens = (long.length > 0 ? long : unique).sort((a, b) => Number(isMiniMaxJwt(b)) - Number(isMiniMaxJwt(a)));
  const groupId = found.groups[0] ?? tokens.map(groupIdOfJwt).find((group) => group !== null) ?? null;
  return { tokens, groupId };
}
