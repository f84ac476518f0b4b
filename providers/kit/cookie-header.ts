/**
 * Pasted cookie text (a bare header, a `Cookie:` line, a header dump or a "Copy as cURL" command)
 * reduced to a `name=value; ...` header, as credentials.md section 6.1 describes.
 */

export interface CookiePair {
  name: string;
  value: string;
}

// Tried in order, first match wins. `$'...'` is the ANSI-C quoting of Chrome's "Copy as cURL (bash)".
const EXTRACTORS: readonly RegExp[] = [
  /-H\s*\$?'Cookie:\s*([^'\s][^']*)'/i,
  /-H\s*"Cookie:\s*([^"\s][^"]*)"/i,
  /\bcookie:\s*'([^'\s][^']*)'/i,
  /\bcookie:\s*"([^"\s][^"]*)"/i,
  /\bcookie:\s*([^\r\n]+)/i,
  /(?:^|\s)(?:--cookie|-b)\s*\$?'([^']+)'/i,
  /(?:^|\s)(?:--cookie|-b)\s*"([^"]+)"/i,
  /(?:^|\s)-b([^\s'"=]+=[^\s'"]*)/i,
  /(?:^|\s)(?:--cookie|-b)\s+(\S+)/i,
];

/** The cookie header inside pasted text, or null when nothing is left. */
export function normalizeCookieHeader(input: string | null | undefined): string | null {
  let text = (input ?? "").trim();
  if (text === "") return null;
  for (const pattern of EXTRACTORS) {
    const match = pattern.exec(text);
    if (match?.[1]) {
      text = match[1].trim();
      break;
    }
  }
  text = text.replace(/^cookie:\s*/i, "").trim();
  if (text.length >= 2 && (text[0] === '"' || text[0] === "'") && text.at(-1) === text[0]) text = text.slice(1, -1).trim();
  return text === "" ? null : text;
}

/** `a=1; b=2` as pairs, split at the first `=`; parts without `=` or without a name are skipped. */
export function cookiePairs(header: string): CookiePair[] {
  const pairs: CookiePair[] = [];
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index < 0) continue;
    const name = part.slice(0, index).trim();
    if (name === "") continue;
    pairs.push({ name, value: part.slice(index + 1).trim() });
  }
  return pairs;
}

/** The value of the first cookie with this name (case-sensitive, as browsers treat names). */
export function cookieValue(header: string, name: string): string | null {
  const pair = cookiePairs(header).find((p) => p.name === name);
  return pair && pair.value !== "" ? pair.value : null;
}

/** Characters no cookie name or value may hold in a header: they would end the pair or the header. */
const UNSAFE = /[;\r\n\0]/;

/**
 * `name=value; ...` for a request, as a browser orders it (RFC 6265 section 5.4: longer paths
 * first, otherwise stored order). A cookie whose name or value would break the header is left out.
 */
export function cookieHeaderOf(cookies: readonly { name: string; value: string; path?: string }[]): string | null {
  const safe = cookies.filter((c) => c.name !== "" && !c.name.includes("=") && !UNSAFE.test(c.name) && !UNSAFE.test(c.value));
  const ordered = safe.map((c, i) => ({ c, i })).sort((a, b) => (b.c.path ?? "/").length - (a.c.path ?? "/").length || a.i - b.i);
  const header = ordered.map(({ c }) => `${c.name}=${c.value}`).join("; ");
  return header === "" ? null : header;
}
