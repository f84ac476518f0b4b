// AssemblyScript, compiled to WebAssembly by scripts/build-wasm.mjs (claude-line-wasm.ts holds the
// result; a test checks that it is this file's). Reads one Claude Code log line from its bytes: checks
// it is JSON as JSON.parse would, and finds the fields a request is counted from (claude-bytes.ts
// uses them). It only ever answers for the common shape: anything else (an escape in a field it
// reads, a key twice, a count that is not plain digits, a text past ASCII, deep nesting, a line that
// is not JSON) answers "no" and the line goes to JSON.parse, so a "yes" is always exact.

/** Where the answer is put: FIELDS numbers (f64), in this order. */
const INPUT: i32 = 0; // usage.input_tokens
const OUTPUT: i32 = 1; // usage.output_tokens
const CACHE_WRITE: i32 = 2; // usage.cache_creation_input_tokens, -1 when absent
const CACHE_READ: i32 = 3; // usage.cache_read_input_tokens, -1 when absent
const SPLIT_5M: i32 = 4; // usage.cache_creation.ephemeral_5m_input_tokens, -1 when absent
const SPLIT_1H: i32 = 5; // usage.cache_creation.ephemeral_1h_input_tokens, -1 when absent
const HAS_SPLIT: i32 = 6; // 1 when usage.cache_creation is an object
const KEY: i32 = 7; // answerKey(message.id, requestId) (log-entry.ts), -1 when either is absent or empty
const MODEL_AT: i32 = 8; // message.model: where its text starts and its length
const MODEL_LENGTH: i32 = 9;
const TIME_AT: i32 = 10; // timestamp
const TIME_LENGTH: i32 = 11;
const SESSION_AT: i32 = 12; // sessionId, -1 when absent
const SESSION_LENGTH: i32 = 13;
const SIDECHAIN: i32 = 14; // 1 when isSidechain is true
const VERTEX_ID: i32 = 15; // 1 when message.id or requestId holds "_vrtx_"
const SAME_MODEL: i32 = 16; // 1 when the model's text is the last answer's
const SAME_SESSION: i32 = 17; // 1 when the session's text is the last answer's
const TIME: i32 = 18; // the timestamp in ms since the epoch, NaN when it is not in one of timeOf's two read forms
const FIELDS: i32 = 19;

/** Nesting deeper than this answers "no" (JSON.parse itself has no limit). */
const MAX_DEPTH: i32 = 64;
/** Longer counts answer "no": 15 digits are always a safe integer. */
const MAX_DIGITS: i32 = 15;
/** The last model and session texts are kept up to this length, to say when a line repeats them. */
const KEPT_TEXT: i32 = 256;

// what the object being read is: its members are looked for by name
const OTHER: i32 = 0;
const LINE: i32 = 1;
const MESSAGE: i32 = 2;
const USAGE: i32 = 3;
const SPLIT: i32 = 4;

// the memory the caller writes the line into, and where the answer goes
const fields = memory.data(FIELDS * 8, 16);
const keptModel = memory.data(KEPT_TEXT);
const keptSession = memory.data(KEPT_TEXT);
let keptModelLength: i32 = -1;
let keptSessionLength: i32 = -1;

let pos: i32 = 0;
let end: i32 = 0;
// a text's span, from readText
let textAt: i32 = 0;
let textLength: i32 = 0;
// where message.id and requestId are, for the answer's key
let idAt: i32 = 0;
let idLength: i32 = -1;
let requestAt: i32 = 0;
let requestLength: i32 = -1;
// members found so far, one bit each: a second one answers "no"
let seen: i32 = 0;

/** Where the answer is: FIELDS f64 numbers. */
export function fieldsAt(): i32 {
  return <i32>fields;
}

/** The first free byte: the caller's lines go from there. */
export function freeAt(): i32 {
  return (<i32>__heap_base + 15) & ~15;
}

@inline function set(field: i32, value: f64): void {
  store<f64>(fields + (<usize>field << 3), value);
}

@inline function get(field: i32): i32 {
  return <i32>load<f64>(fields + (<usize>field << 3));
}

@inline function byte(at: i32): i32 {
  return <i32>load<u8>(at);
}

/**
 * Reads the line at [start, stop): 1 when it is a JSON object of the common shape (the answer at
 * fieldsAt()), 0 when JSON.parse must read it. 16 bytes past `stop` must be readable (they are not used).
 */
export function readLine(start: i32, stop: i32): i32 {
  pos = start;
  end = stop;
  seen = 0;
  idLength = -1;
  requestLength = -1;
  set(CACHE_WRITE, -1);
  set(CACHE_READ, -1);
  set(SPLIT_5M, -1);
  set(SPLIT_1H, -1);
  set(HAS_SPLIT, 0);
  set(SESSION_AT, -1);
  set(SESSION_LENGTH, -1);
  set(SIDECHAIN, 0);
  skipSpace();
  if (pos >= end || byte(pos) != 0x7b) return 0;
  if (!object(LINE, 0)) return 0;
  skipSpace();
  if (pos != end) return 0;
  // the counted members: message, message.usage, message.model, usage.input_tokens, usage.output_tokens, timestamp
  const needed = (1 << 0) | (1 << 6) | (1 << 5) | (1 << 8) | (1 << 9) | (1 << 3);
  if ((seen & needed) != needed) return 0;
  set(KEY, idLength > 0 && requestLength > 0 ? answerKey() : -1);
  set(VERTEX_ID, holdsVrtx(idAt, idLength) || holdsVrtx(requestAt, requestLength) ? 1 : 0);
  set(TIME, timeAt(get(TIME_AT), get(TIME_LENGTH)));
  const sameModel = sameAsKept(keptModel, keptModelLength, get(MODEL_AT), get(MODEL_LENGTH));
  if (!sameModel) keptModelLength = keep(keptModel, get(MODEL_AT), get(MODEL_LENGTH));
  set(SAME_MODEL, sameModel ? 1 : 0);
  const sessionLength = get(SESSION_LENGTH);
  const sameSession = sessionLength >= 0 && sameAsKept(keptSession, keptSessionLength, get(SESSION_AT), sessionLength);
  if (sessionLength >= 0 && !sameSession) keptSessionLength = keep(keptSession, get(SESSION_AT), sessionLength);
  set(SAME_SESSION, sameSession ? 1 : 0);
  return 1;
}

function sameAsKept(kept: usize, keptLength: i32, at: i32, length: i32): bool {
  return length == keptLength && memory.compare(kept, <usize>at, <usize>length) == 0;
}

/** A text kept to compare the next line's with: its length, -1 when it is too long to keep (the next is then never the same). */
function keep(kept: usize, at: i32, length: i32): i32 {
  if (length > KEPT_TEXT) return -1;
  memory.copy(kept, <usize>at, <usize>length);
  return length;
}

@inline function skipSpace(): void {
  while (pos < end) {
    const c = byte(pos);
    if (c != 0x20 && c != 0x0a && c != 0x0d && c != 0x09) return;
    pos++;
  }
}

/** Passes an opening bracket and the space after it: true when `close` comes at once (an empty object or array, passed too). */
@inline function opensEmpty(close: i32): bool {
  pos++;
  skipSpace();
  if (pos < end && byte(pos) == close) {
    pos++;
    return true;
  }
  return false;
}

/** An object at pos (its `{`), of kind `kind`: its members checked, those looked for kept. */
function object(kind: i32, depth: i32): bool {
  if (depth > MAX_DEPTH) return false;
  if (opensEmpty(0x7d)) return true;
  for (;;) {
    if (pos >= end || byte(pos) != 0x22) return false;
    if (kind == OTHER) {
      if (!skipText()) return false;
      skipSpace();
      if (pos >= end || byte(pos) != 0x3a) return false;
      pos++;
      skipSpace();
      if (!value(depth + 1)) return false;
    } else {
      // a key read by name: one with an escape might spell a looked-for name, and is left to JSON.parse
      if (!readText()) return false;
      const member = memberOf(kind, textAt, textLength);
      if (member < 0) return false;
      skipSpace();
      if (pos >= end || byte(pos) != 0x3a) return false;
      pos++;
      skipSpace();
      if (member == 31) {
        if (!value(depth + 1)) return false;
      } else {
        if ((seen & (1 << member)) != 0) return false;
        seen |= 1 << member;
        if (!memberValue(member, depth + 1)) return false;
      }
    }
    skipSpace();
    if (pos >= end) return false;
    const c = byte(pos);
    pos++;
    if (c == 0x2c) {
      skipSpace();
      continue;
    }
    return c == 0x7d;
  }
}

/**
 * Which looked-for member a key of an object of kind `kind` is (its bit in `seen`), 31 for any
 * other key, -1 for one with an escape or past ASCII (it might spell a looked-for name).
 */
function memberOf(kind: i32, at: i32, length: i32): i32 {
  if (length < 0) return -1;
  if (kind == LINE) {
    if (length == 7) return named(at, length, "message") ? 0 : 31;
    if (length == 9) {
      const c = byte(at);
      if (c == 0x72) return named(at, length, "requestId") ? 1 : 31;
      if (c == 0x73) return named(at, length, "sessionId") ? 2 : 31;
      return named(at, length, "timestamp") ? 3 : 31;
    }
    if (length == 11) return named(at, length, "isSidechain") ? 4 : 31;
  } else if (kind == MESSAGE) {
    if (length == 5) {
      const c = byte(at);
      if (c == 0x6d) return named(at, length, "model") ? 5 : 31;
      return named(at, length, "usage") ? 6 : 31;
    }
    if (length == 2) return named(at, length, "id") ? 7 : 31;
  } else if (kind == USAGE) {
    if (length == 12) return named(at, length, "input_tokens") ? 8 : 31;
    if (length == 13) return named(at, length, "output_tokens") ? 9 : 31;
    if (length == 27) return named(at, length, "cache_creation_input_tokens") ? 10 : 31;
    if (length == 23) return named(at, length, "cache_read_input_tokens") ? 11 : 31;
    if (length == 14) return named(at, length, "cache_creation") ? 12 : 31;
  } else if (kind == SPLIT) {
    if (length == 25) {
      if (named(at, length, "ephemeral_5m_input_tokens")) return 13;
      if (named(at, length, "ephemeral_1h_input_tokens")) return 14;
    }
  }
  return 31;
}

@inline function named(at: i32, length: i32, name: string): bool {
  if (length != name.length) return false;
  for (let i = 0; i < length; i++) if (byte(at + i) != <i32>name.charCodeAt(i)) return false;
  return true;
}

/** A looked-for member's value: of the type it must have (else "no"), kept. */
function memberValue(member: i32, depth: i32): bool {
  if (pos >= end) return false;
  const c = byte(pos);
  switch (member) {
    case 0: // message
      return c == 0x7b && object(MESSAGE, depth);
    case 6: // usage
      return c == 0x7b && object(USAGE, depth);
    case 12: // cache_creation
      if (c != 0x7b || !object(SPLIT, depth)) return false;
      set(HAS_SPLIT, 1);
      return true;
    case 4: // isSidechain: any value, true or not
      if (c == 0x74 && pos + 4 <= end && byte(pos + 1) == 0x72 && byte(pos + 2) == 0x75 && byte(pos + 3) == 0x65) {
        pos += 4;
        set(SIDECHAIN, 1);
        return true;
      }
      return value(depth);
    case 1: // requestId
    case 7: // message.id
    case 2: // sessionId
    case 3: // timestamp
    case 5: // model
      if (c != 0x22 || !readText() || textLength < 0) return false;
      if (member == 1) {
        requestAt = textAt;
        requestLength = textLength;
      } else if (member == 7) {
        idAt = textAt;
        idLength = textLength;
      } else {
        const at = member == 2 ? SESSION_AT : member == 3 ? TIME_AT : MODEL_AT;
        set(at, textAt);
        set(at + 1, textLength);
      }
      return true;
    default: {
      // a count: plain digits
      const count = readCount();
      if (count < 0) return false;
      const field =
        member == 8 ? INPUT : member == 9 ? OUTPUT : member == 10 ? CACHE_WRITE : member == 11 ? CACHE_READ : member == 13 ? SPLIT_5M : SPLIT_1H;
      set(field, count);
      return true;
    }
  }
}

/** Digits with no sign, fraction or exponent, no leading zero, at most MAX_DIGITS: their value; -1 otherwise. */
function readCount(): f64 {
  const start = pos;
  let count: f64 = 0;
  while (pos < end) {
    const c = byte(pos);
    if (c < 0x30 || c > 0x39) break;
    count = count * 10 + <f64>(c - 0x30);
    pos++;
  }
  const digits = pos - start;
  if (digits == 0 || digits > MAX_DIGITS || (digits > 1 && byte(start) == 0x30)) return -1;
  if (pos < end) {
    const c = byte(pos);
    if (c == 0x2e || c == 0x65 || c == 0x45) return -1;
  }
  return count;
}

/** Any JSON value at pos. */
function value(depth: i32): bool {
  if (pos >= end) return false;
  const c = byte(pos);
  if (c == 0x22) return skipText();
  if (c == 0x7b) return object(OTHER, depth);
  if (c == 0x5b) return array(depth);
  if (c == 0x74) return word(0x74, 0x72, 0x75, 0x65);
  if (c == 0x6e) return word(0x6e, 0x75, 0x6c, 0x6c);
  if (c == 0x66) {
    if (!word(0x66, 0x61, 0x6c, 0x73)) return false;
    if (pos >= end || byte(pos) != 0x65) return false;
    pos++;
    return true;
  }
  return skipNumber();
}

function array(depth: i32): bool {
  if (depth > MAX_DEPTH) return false;
  if (opensEmpty(0x5d)) return true;
  for (;;) {
    skipSpace();
    if (!value(depth + 1)) return false;
    skipSpace();
    if (pos >= end) return false;
    const c = byte(pos);
    pos++;
    if (c == 0x2c) continue;
    return c == 0x5d;
  }
}

@inline function word(a: i32, b: i32, c: i32, d: i32): bool {
  if (pos + 4 > end || byte(pos) != a || byte(pos + 1) != b || byte(pos + 2) != c || byte(pos + 3) != d) return false;
  pos += 4;
  return true;
}

/** JSON's number: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
function skipNumber(): bool {
  if (pos < end && byte(pos) == 0x2d) pos++;
  if (pos >= end) return false;
  let c = byte(pos);
  if (c == 0x30) pos++;
  else if (c >= 0x31 && c <= 0x39) skipDigits();
  else return false;
  if (pos < end && byte(pos) == 0x2e) {
    pos++;
    if (!skipDigits()) return false;
  }
  if (pos < end) {
    c = byte(pos);
    if (c == 0x65 || c == 0x45) {
      pos++;
      if (pos < end && (byte(pos) == 0x2b || byte(pos) == 0x2d)) pos++;
      if (!skipDigits()) return false;
    }
  }
  return true;
}

@inline function skipDigits(): bool {
  const start = pos;
  while (pos < end) {
    const c = byte(pos);
    if (c < 0x30 || c > 0x39) break;
    pos++;
  }
  return pos > start;
}

/** A text at pos (its opening quote), checked and passed. */
function skipText(): bool {
  return passText(false);
}

/**
 * A text at pos (its opening quote), checked and passed; its span in textAt and textLength, or
 * textLength -1 when it holds an escape or a byte past ASCII (its JavaScript string is not its bytes).
 */
function readText(): bool {
  return passText(true);
}

/**
 * A text passed 16 bytes at a time up to a quote, a backslash or a control character (JSON.parse
 * refuses those raw in a text), then byte by byte; `read` (a constant where this is inlined): its span kept.
 */
@inline function passText(read: bool): bool {
  let at = pos + 1;
  const start = at;
  let plain = true;
  for (;;) {
    // bytes up to `end` + 15 are readable: a stop found past `end` is no stop
    while (at < end) {
      const chunk = v128.load(at);
      const mask = i8x16.bitmask(stopsIn(chunk));
      // bytes past ASCII before the stop
      if (read && (i8x16.bitmask(chunk) & (mask == 0 ? 0xffff : (1 << ctz(mask)) - 1)) != 0) plain = false;
      if (mask == 0) {
        at += 16;
        continue;
      }
      at += ctz(mask);
      break;
    }
    if (at >= end) return false;
    const c = byte(at);
    if (c == 0x22) {
      if (read) {
        textAt = start;
        textLength = plain ? at - start : -1;
      }
      pos = at + 1;
      return true;
    }
    if (c < 0x20) return false;
    plain = false;
    pos = at;
    if (!skipEscape()) return false;
    at = pos;
  }
  return false; // not reached
}

/** An escape at pos (its backslash), checked and passed. */
function skipEscape(): bool {
  pos++;
  if (pos >= end) return false;
  const c = byte(pos);
  if (c == 0x75) {
    if (pos + 5 > end) return false;
    for (let i = 1; i <= 4; i++) {
      const h = byte(pos + i) | 0x20;
      if (!((h >= 0x30 && h <= 0x39) || (h >= 0x61 && h <= 0x66))) return false;
    }
    pos += 5;
    return true;
  }
  if (c == 0x22 || c == 0x5c || c == 0x2f || c == 0x62 || c == 0x66 || c == 0x6e || c == 0x72 || c == 0x74) {
    pos++;
    return true;
  }
  return false;
}

/** A quote, a backslash or a control character in each of 16 bytes: where a text's plain run stops. */
@inline function stopsIn(chunk: v128): v128 {
  return v128.or(v128.or(i8x16.eq(chunk, i8x16.splat(0x22)), i8x16.eq(chunk, i8x16.splat(0x5c))), i8x16.lt_u(chunk, i8x16.splat(0x20)));
}

/** log-entry.ts `answerKey(id, request)`, over the texts' bytes (ASCII: a byte is its character code). */
function answerKey(): f64 {
  let a: u32 = 0x811c9dc5;
  let b: u32 = 0x01000193;
  for (let i = 0; i < idLength; i++) {
    const c = <u32>byte(idAt + i);
    a = (a ^ c) * 0x01000193;
    b = (b ^ c) * 0x5bd1e995;
  }
  a = (a ^ 58) * 0x01000193;
  b = (b ^ 58) * 0x5bd1e995;
  for (let i = 0; i < requestLength; i++) {
    const c = <u32>byte(requestAt + i);
    a = (a ^ c) * 0x01000193;
    b = (b ^ c) * 0x5bd1e995;
  }
  return <f64>a * 2097152 + <f64>(b >>> 11);
}

function holdsVrtx(at: i32, length: i32): bool {
  for (let i = 0; i + 6 <= length; i++) {
    if (
      byte(at + i) == 0x5f &&
      byte(at + i + 1) == 0x76 &&
      byte(at + i + 2) == 0x72 &&
      byte(at + i + 3) == 0x74 &&
      byte(at + i + 4) == 0x78 &&
      byte(at + i + 5) == 0x5f
    )
      return true;
  }
  return false;
}

/**
 * claude-logs.ts `/ertex|ERTEX|gcp|GCP|Gcp/` over the bytes at [start, stop) (as over their Latin-1
 * text): each x, X, p or P found 16 bytes at a time is looked behind. 16 bytes past `stop` must be readable.
 */
export function namesVertexAnywhere(start: i32, stop: i32): bool {
  const lowerX = i8x16.splat(0x78);
  const upperX = i8x16.splat(0x58);
  const lowerP = i8x16.splat(0x70);
  const upperP = i8x16.splat(0x50);
  for (let at = start; at < stop; at += 16) {
    const chunk = v128.load(at);
    let mask = i8x16.bitmask(v128.or(v128.or(i8x16.eq(chunk, lowerX), i8x16.eq(chunk, upperX)), v128.or(i8x16.eq(chunk, lowerP), i8x16.eq(chunk, upperP))));
    while (mask != 0) {
      const i = at + ctz(mask);
      mask &= mask - 1;
      if (i >= stop) break;
      const c = byte(i);
      if (c == 0x78 || c == 0x58) {
        if (i - 4 < start) continue;
        const lower = c == 0x78;
        if (
          byte(i - 4) == (lower ? 0x65 : 0x45) &&
          byte(i - 3) == (lower ? 0x72 : 0x52) &&
          byte(i - 2) == (lower ? 0x74 : 0x54) &&
          byte(i - 1) == (lower ? 0x65 : 0x45)
        )
          return true;
      } else {
        if (i - 2 < start) continue;
        const g = byte(i - 2);
        const cc = byte(i - 1);
        // gcp, GCP, Gcp
        if ((c == 0x70 && g == 0x67 && cc == 0x63) || (c == 0x50 && g == 0x47 && cc == 0x43) || (c == 0x70 && g == 0x47 && cc == 0x63)) return true;
      }
    }
  }
  return false;
}

/**
 * log-entry.ts `timeOf` for the forms log lines have (`2026-03-20T12:00:00.000Z`,
 * `2026-03-20T14:00:00.000+02:00`): ms since the epoch, as Date.parse reads them; NaN for any other
 * text and for a date or time that is not a real one (timeOf reads those, with Date.parse).
 */
function timeAt(at: i32, length: i32): f64 {
  const offsetForm = length == 29;
  if (length != 24 && !offsetForm) return NaN;
  if (!(digitsAt(at, 4) && byte(at + 4) == 0x2d && digitsAt(at + 5, 2) && byte(at + 7) == 0x2d && digitsAt(at + 8, 2))) return NaN;
  if (!(byte(at + 10) == 0x54 && digitsAt(at + 11, 2) && byte(at + 13) == 0x3a && digitsAt(at + 14, 2) && byte(at + 16) == 0x3a))
    return NaN;
  if (!(digitsAt(at + 17, 2) && byte(at + 19) == 0x2e && digitsAt(at + 20, 3))) return NaN;
  const sign = byte(at + 23);
  if (offsetForm) {
    if (!((sign == 0x2b || sign == 0x2d) && digitsAt(at + 24, 2) && byte(at + 26) == 0x3a && digitsAt(at + 27, 2))) return NaN;
  } else if (sign != 0x5a) return NaN;
  const year = number(at, 4);
  const month = number(at + 5, 2);
  const day = number(at + 8, 2);
  const hour = number(at + 11, 2);
  const minute = number(at + 14, 2);
  const second = number(at + 17, 2);
  const ms = number(at + 20, 3);
  const offsetHours = offsetForm ? number(at + 24, 2) : 0;
  const offsetMinutes = offsetForm ? number(at + 27, 2) : 0;
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) return NaN;
  if (offsetHours > 23 || offsetMinutes > 59) return NaN;
  const offset = (sign == 0x2d ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  const minutes = (<f64>daysFromCivil(year, month, day) * 24 + <f64>hour) * 60 + <f64>minute - <f64>offset;
  return minutes * 60000 + <f64>(second * 1000 + ms);
}

@inline function digitsAt(at: i32, count: i32): bool {
  for (let i = 0; i < count; i++) {
    const c = byte(at + i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

@inline function number(at: i32, count: i32): i32 {
  let n = 0;
  for (let i = 0; i < count; i++) n = n * 10 + byte(at + i) - 0x30;
  return n;
}

function daysIn(year: i32, month: i32): i32 {
  if (month == 2) return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
  return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil; log-entry.ts has the same). */
function daysFromCivil(year: i32, month: i32, day: i32): i32 {
  const y = month <= 2 ? year - 1 : year;
  // a floor division: the year before 0000 is era -1
  const era = (y >= 0 ? y : y - 399) / 400;
  const yearOfEra = y - era * 400;
  const dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}
