/**
 * The forms an upstream may echo a secret in besides its own text: the base64, base64url and hex of
 * its UTF-8 bytes (an upstream that puts the request's credential into a plan name so encoded).
 * base64 is also taken at the two other byte alignments (the secret after one or two bytes of
 * something else, as in Basic auth's `user:secret`), less the characters those bytes share: with
 * redaction's runs of 8 characters, an encoded secret is found wherever it starts.
 */

/** Forms shorter than this are not looked for at other alignments (they would hide ordinary text). */
const MIN_ALIGNED_CHARS = 8;
/** Secrets are few and redaction runs on every string of a document: each one's forms are worked out once. */
const known = new Map<string, string[]>();
const MAX_KNOWN = 256;

/** The secrets with their encoded forms after them; a secret with white space (a whole cookie header) is taken as it is. */
export function withEncodedForms(secrets: readonly (string | null | undefined)[]): string[] {
  const all: string[] = [];
  for (const secret of secrets) {
    if (!secret) continue;
    all.push(secret);
    if (!/\s/.test(secret)) all.push(...encodedForms(secret));
  }
  return all;
}

/** base64 (three alignments), base64url of the aligned one, and hex of `secret`. */
export function encodedForms(secret: string): string[] {
  let forms = known.get(secret);
  if (forms === undefined) {
    if (known.size >= MAX_KNOWN) known.clear();
    const bytes = new TextEncoder().encode(secret);
    const aligned = base64(bytes);
    const shifted = [1, 2].map((shift) => innerBase64(bytes, shift)).filter((form) => form.length >= MIN_ALIGNED_CHARS);
    const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
    forms = [...new Set([aligned, aligned.replaceAll("+", "-").replaceAll("/", "_"), ...shifted, hex])];
    known.set(secret, forms);
  }
  return forms;
}

/** base64 without its `=` padding (an echo may leave it out). */
function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const encoded = btoa(binary);
  let end = encoded.length;
  while (end > 0 && encoded[end - 1] === "=") end--;
  return encoded.slice(0, end);
}

/**
 * The characters of base64(`shift` other bytes + secret) that depend on the secret's bytes alone:
 * the first group of four (which holds the other bytes) and a last group the next bytes would
 * change are left out.
 */
function innerBase64(bytes: Uint8Array, shift: number): string {
  const encoded = base64(new Uint8Array([...new Uint8Array(shift), ...bytes]));
  const whole = Math.floor((shift + bytes.length) / 3) * 4;
  return encoded.slice(4, whole);
}
