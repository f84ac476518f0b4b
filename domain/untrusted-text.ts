import { redact } from "./redact.js";

/* eslint-disable no-control-regex -- matching control characters is the point here */
// Linear patterns: a CSI sequence, an OSC sequence (window title, hyperlink) up to BEL or ST, then any other control.
const CSI = /\x1b\[[0-?]*[ -/]*[@-~]/g;
const OSC = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g;
const CONTROL = /[\x00-\x1f\x7f-\x9f]/g;
/* eslint-enable no-control-regex */

/** Upstream text made safe to print: no terminal escape or control character, ordinary Unicode kept. */
export function withoutControls(text: string): string {
  return text
    .replace(CSI, "")
    .replace(OSC, "")
    .replace(CONTROL, (c) => (c === "\t" || c === "\n" || c === "\r" ? " " : ""));
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
