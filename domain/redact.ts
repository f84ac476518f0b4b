/** Token shapes worth hiding even when nobody told us they were secret. */
const TOKEN_PATTERNS: RegExp[] = [
  /\b(Bearer|token)\s+[A-Za-z0-9._~+/=-]{16,}/gi, // long enough to be a token, not a word ("token expired")
  /\b(sk-or-v1-|sk-|gh[opsu]_|github_pat_|wk-)[A-Za-z0-9._-]{16,}/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{5,}/g, // JWTs (cookies such as kimi-auth)
];

/** Echoed credential headers (`Cookie: a=b`, `"authorization":"..."`, `x-api-key=...`): the value goes, the name stays. */
const CREDENTIAL_HEADER = /\b(set-cookie|cookie|authorization|proxy-authorization|x-api-key|api[-_]?key)("?\s*[:=]\s*"?)[^"\r\n,}]*/gi;

/** Replace known secrets and anything that looks like a token; used on every error message and log line. */
export function redact(text: string, secrets: readonly (string | null | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join("***");
  }
  out = out.replace(CREDENTIAL_HEADER, (_match, name: string, separator: string) => `${name}${separator}***`);
  for (const pattern of TOKEN_PATTERNS) {
    out = out.replace(pattern, (match, prefix: string | undefined) =>
      prefix && /^(bearer|token)$/i.test(prefix) ? `${prefix} ***` : `${prefix ?? ""}***`,
    );
  }
  return out;
}
