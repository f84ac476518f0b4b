import { cookieValue, normalizeCookieHeader } from "../browser/cookie-header.js";

const TOKEN_CHARS = "[A-Za-z0-9._\\-+=/]+";
const AS_COOKIE = new RegExp(`kimi-auth=(${TOKEN_CHARS})`, "i");
const AS_HEADER = new RegExp(`kimi-auth:\\s*(${TOKEN_CHARS})`, "i");

/** The `kimi-auth` JWT in pasted text: `kimi-auth=...`, `kimi-auth: ...`, a cURL command, or the bare JWT. */
export function kimiAuthTokenFromText(text: string): string | null {
  const direct = AS_COOKIE.exec(text)?.[1] ?? AS_HEADER.exec(text)?.[1];
  if (direct) return direct;
  const header = normalizeCookieHeader(text);
  const fromHeader = header ? cookieValue(header, "kimi-auth") : null;
  if (fromHeader) return fromHeader;
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
  const none = { deviceId: null, sessionId: null, subject: null };
  const parts = token.split(".");
  if (parts.length !== 3) return none;
  try {
    const payload = JSON.parse(Buffer.from(parts[1] as string, "base64url").toString("utf8")) as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
    return { deviceId: text(payload.device_id), sessionId: text(payload.ssid), subject: text(payload.sub) };
  } catch {
    return none;
  }
}
