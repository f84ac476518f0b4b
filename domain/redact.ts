import { withEncodedForms } from "./secret-encodings.js";
import { maskSecretRuns } from "./secret-runs.js";

const MASK = "***";
/** A known secret shorter than this is not looked for (it would hide ordinary words). */
const MIN_SECRET_CHARS = 4;

/** Token shapes worth hiding even when nobody told us they were secret. */
const TOKEN_PATTERNS: RegExp[] = [
  /\b(Bearer|token)\s+[A-Za-z0-9._~+/=-]{16,}/gi, // long enough to be a token, not a word ("token expired")
  /\b(sk-or-v1-|sk-|gh[opsu]_|github_pat_|wk-)[A-Za-z0-9._-]{16,}/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{5,}/g, // JWTs (cookies such as kimi-auth)
];

/**
 * Echoed credential headers (`Cookie: a=b`, `"authorization":"..."`, `x-api-key=...`): the value
 * goes, the name stays. The name starts the text, follows a character that is no part of a name,
 * or follows a JSON-escaped line break (`...\ncookie: ...`, where `\b` would see no boundary).
 */
const CREDENTIAL_HEADER =
  /(?:(?<!\w)|(?<=\\[nrt]))(set-cookie|cookie|proxy-authorization|authorization|x-api-key|api[-_]?key|x-codeium-csrf-token|csrf[-_]?token)("?\s*[:=]\s*"?)[^"\r\n,}]*/gi;

/**
 * Names of headers, form or JSON fields and query parameters that carry a credential whatever
 * their value (a request sending one never follows a redirect to another origin).
 */
export const CREDENTIAL_NAME =
  /^(?:authorization|proxy-authorization|cookie)$|token|secret|passw(?:or)?d|api[-_]?key|csrf|session|credential|device[-_]?code/i;

/**
 * Replace known secrets and anything that looks like a token; used on every error message and log
 * line. A known secret is hidden in any letter case, and so is any run of 8 or more consecutive
 * characters of it (an upstream that quotes only its start or its end), in linear time; so are its
 * base64, base64url and hex forms (domain/secret-encodings.ts).
 */
export function redact(text: string, secrets: readonly (string | null | undefined)[] = []): string {
  let out = maskSecretRuns(text, withEncodedForms(secrets), MASK, MIN_SECRET_CHARS);
  out = out.replace(CREDENTIAL_HEADER, (_match, name: string, separator: string) => `${name}${separator}${MASK}`);
  for (const pattern of TOKEN_PATTERNS) {
    out = out.replace(pattern, (match, prefix: string | undefined) =>
      prefix && /^(bearer|token)$/i.test(prefix) ? `${prefix} ${MASK}` : `${prefix ?? ""}${MASK}`,
    );
  }
  return out;
}

/** An excerpt reads this much of a text at most: far more than it ever shows, little enough to redact at once. */
const EXCERPT_SCAN_CHARS = 16_384;
/** Where the scan cut a text, the last characters may be a piece of a secret too short to recognise: dropped. */
const EXCERPT_SCAN_TAIL = 64;

export interface ExcerptOptions {
  /** At most this many characters (then "..."); 200 unless told. */
  maxChars?: number;
  /** Only the first line that is not blank (a CLI's message, never its whole output). */
  firstLine?: boolean;
}

/**
 * What an upstream (or a CLI) said, fit for an error message: redacted first, then put on one
 * line and cut. The order is the point: a secret cut in two is no longer the secret that redaction
 * looks for, so whoever quotes untrusted text in a message quotes it through here.
 */
export function redactedExcerpt(
  text: string,
  secrets: readonly (string | null | undefined)[],
  { maxChars = 200, firstLine = false }: ExcerptOptions = {},
): string {
  const said = firstLine ? firstFilledLine(text) : text;
  const scanned = said.length > EXCERPT_SCAN_CHARS;
  let clean = redact(scanned ? said.slice(0, EXCERPT_SCAN_CHARS) : said, secrets);
  if (scanned) clean = clean.slice(0, -EXCERPT_SCAN_TAIL);
  const flat = clean.replace(/\s+/g, " ").trim();
  return flat.length > maxChars ? `${flat.slice(0, maxChars)}...` : flat;
}

/** The first line with something on it, found without splitting the whole text. */
function firstFilledLine(text: string): string {
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf("\n", start);
    const line = text.slice(start, end === -1 ? text.length : end);
    if (line.trim() !== "") return line;
    if (end === -1) break;
    start = end + 1;
  }
  return "";
}

/** `redactedExcerpt` with no known secret (token shapes only): the default of a reader called outside a fetch, as in a test. */
export const excerptOutsideFetch = (text: string, options?: ExcerptOptions): string => redactedExcerpt(text, [], options);
