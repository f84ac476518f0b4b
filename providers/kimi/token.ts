import { cookieValue, isObject, normalizeCookieHeader, toText, tryJson } from "../kit/index.js";

const TOKEN_CHARS = "[A-Za-z0-9._\\-+=/]+";
const AS_COOKIE = new RegExp(`kimi-auth=(${TOKEN_CHARS})`, "i");
const AS_HEADER = new RegExp(`kimi-auth:\\s*(${TOKEN_CHARS})`, "i");

/** The `kimi-auth` JWT in pasted text: `kimi-auth=...`, `kimi-auth: ...`, a cURL command, or the bare JWT. */
export function kimiAuthTokenFromText(text: string): string | null {
  const direct = AS_COOKIE.exec(text)?.[1] ?? AS_HEADER.exec(text)?.[1];
  if (direct) return direct;
  const header = normalizeCookieHeader(text);
  const inHeader = header ? cookieValue(header, "kimi-auth") : null;
  if (inHeader) return inHeader;
  const bare = text.trim();
  return bare.startsWith("eyJ") && bare.split(".").length === 3 ? bare : null;
}

export interface KimiJwtClaims {
  deviceId: string | null;
  sessionId: string | null;
  subject: string | null;
}

/** The claims the web app mirrors into headers; no signature check (we only echo them back). */
export function kimiJwtClaims(token: string): KimiJwtClaims {
  const parts = token.split(".");
  const payload = parts.length === 3 ? tryJson(Buffer.from(parts[1] as string, "base64url").toString("utf8")) : null;
  if (!isObject(payload)) return { deviceId: null, sessionId: null, subject: null };
  return { deviceId: toText(payload.device_id), sessionId: toText(payload.ssid), subject: toText(payload.sub) };
}
