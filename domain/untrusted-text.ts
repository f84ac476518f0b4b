import { redact } from "./redact.js";

/* eslint-disable no-control-regex -- matching control characters is the point here */
// Linear patterns: a CSI sequence (colours, cursor moves, clear screen), an OSC sequence (window title,
// hyperlink) up to BEL or ST, any other escape (ESC ( B, ESC =, ESC 7) or a stray ESC, then the controls
// but tab and newline (backspace, BEL, C1: a lone 0x9b is a CSI too).
const CSI = /\x1b\[[0-?]*[ -/]*[@-~]/g;
const OSC = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g;
const OTHER_ESCAPE = /\x1b[ -/]*[0-~]?/g;
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;
/* eslint-enable no-control-regex */
// What reorders or hides text on screen: bidi marks, embeddings, overrides (U+202E) and isolates.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const LINE_BREAK = /\r\n?|[\u2028\u2029]/g;

/**
 * Untrusted text (an upstream's, a local program's or file's) made safe to print, lines kept: no
 * terminal escape, no control character but tab and newline (CRLF, a lone CR and the Unicode line
 * separators become newlines), no bidi control. Ordinary Unicode is kept.
 */
export function withoutEscapes(text: string): string {
  return text.replace(CSI, "").replace(OSC, "").replace(OTHER_ESCAPE, "").replace(LINE_BREAK, "\n").replace(CONTROL, "").replace(BIDI, "");
}

/** The same on one line: tabs and newlines become spaces. What every upstream string shown goes through. */
export function withoutControls(text: string): string {
  return withoutEscapes(text).replace(/[\t\n]/g, " ");
}

const MAX_DEPTH = 16;

/**
 * Every string in a value (a snapshot, an error) with the fetch's secrets and token shapes redacted
 * and terminal controls removed: what reaches a renderer, a cache or a log.
 */
export function cleanStrings<T>(value: T, secrets: readonly string[], depth = 0): T {
  if (typeof value === "string") return withoutControls(redact(value, secrets)) as T;
  if (depth > MAX_DEPTH || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => cleanStrings(item, secrets, depth + 1)) as T;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cleanStrings(item, secrets, depth + 1)])) as T;
}
