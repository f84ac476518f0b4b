import { tryJson } from "../../domain/decode-body.js";
import { isObject, type JsonObject } from "./search.js";

/** Longer than any access token's payload: a longer one is not decoded. */
const MAX_PAYLOAD_CHARS = 16_384;

/** The claims of a JWT-shaped token, read without checking its signature (the server does that); null for anything else. */
export function jwtClaims(token: string): JsonObject | null {
  const payload = token.split(".")[1];
  if (!payload || payload.length > MAX_PAYLOAD_CHARS || !/^[A-Za-z0-9_-]+$/.test(payload)) return null;
  const claims = tryJson(Buffer.from(payload, "base64url").toString("utf8"));
  return isObject(claims) ? claims : null;
}
