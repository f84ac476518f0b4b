import { parseError } from "../../domain/errors.js";
import { advice } from "../../domain/remedy.js";
import { MAX_DEPTH } from "./search.js";

/**
 * Data literals inside JavaScript or JSON text: what server-rendered pages and serializers (SvelteKit's
 * devalue, SolidStart's seroval) put in a script or a `text/javascript` answer. Object keys may be bare
 * (`quota:1000`) or quoted; `!0` / `!1` are booleans; `$R[1]={...}` is the value assigned; a bare
 * reference (`$R[3]`) and any other expression (`new Date(...)`) read as undefined. One pass: every
 * character is read a bounded number of times, and nesting deeper than MAX_DEPTH is a parse error.
 */

interface Parsed {
  value: unknown;
  end: number;
}
/** Where a literal stopped making sense; scanning resumes there. */
interface Failed {
  failedAt: number;
}
type Step = Parsed | Failed;

const failed = (at: number): Failed => ({ failedAt: at });
const isFailed = (step: Step): step is Failed => "failedAt" in step;

const WORDS: Record<string, unknown> = { true: true, false: false, null: null, undefined: undefined, NaN: null, Infinity: null };
const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", v: "\v", 0: "\0" };

const isSpace = (c: string | undefined) => c === " " || c === "\n" || c === "\r" || c === "\t" || c === "\f" || c === "\v";
const isWordChar = (c: string | undefined) => c !== undefined && /[\w$]/.test(c);
const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

/** Every object and array literal of the text, in order (those nested in another come inside it). */
export function jsLiterals(text: string, service: string): unknown[] {
  const reader = new LiteralReader(text, service);
  const found: unknown[] = [];
  let at = 0;
  while (at < text.length) {
    const c = text[at];
    if (c === "{" || c === "[") {
      const step = reader.value(at, 1);
      if (isFailed(step)) at = Math.max(at + 1, step.failedAt);
      else {
        found.push(step.value);
        at = step.end;
      }
    } else if (c === '"' || c === "'" || c === "`") {
      // braces inside a string of the surrounding code are not literals
      const step = c === "`" ? reader.templateEnd(at) : reader.string(at);
      at = isFailed(step) ? at + 1 : step.end;
    } else at++;
  }
  return found;
}

class LiteralReader {
  constructor(
    private readonly text: string,
    private readonly service: string,
  ) {}

  private skipSpace(at: number): number {
    while (isSpace(this.text[at])) at++;
    return at;
  }

  /** Objects, arrays and assignments count as levels; past MAX_DEPTH the text is refused. */
  private guard(depth: number): void {
    if (depth <= MAX_DEPTH) return;
    throw parseError(
      `Failed to parse ${this.service} response: its data nests deeper than ${MAX_DEPTH} levels`,
      advice(`${this.service} may have changed its pages, or a proxy answered instead.`),
    );
  }

  value(start: number, depth: number): Step {
    const at = this.skipSpace(start);
    const c = this.text[at];
    if (c === "{") return this.object(at, depth);
    if (c === "[") return this.array(at, depth);
    if (c === '"' || c === "'" || c === "`") return this.string(at);
    if (c === "!" && (this.text[at + 1] === "0" || this.text[at + 1] === "1")) return { value: this.text[at + 1] === "0", end: at + 2 };
    if (isDigit(c) || c === "-" || c === "+" || c === ".") return this.number(at);
    if (isWordChar(c)) return this.word(at, depth);
    // `(a) => ...` and other code: skipped; a missing value is no literal at all
    return c === undefined || ",:;)]}".includes(c) ? failed(at) : this.expression(at);
  }

  private object(start: number, depth: number): Step {
    this.guard(depth);
    const result: Record<string, unknown> = {};
    let at = this.skipSpace(start + 1);
    if (this.text[at] === "}") return { value: result, end: at + 1 };
    for (;;) {
      const key = this.key(at);
      if (isFailed(key)) return key;
      at = this.skipSpace(key.end);
      let value: unknown;
      if (this.text[at] === ":") {
        const step = this.value(at + 1, depth + 1);
        if (isFailed(step)) return step;
        value = step.value;
        at = this.skipSpace(step.end);
      } else if (this.text[at] !== "," && this.text[at] !== "}") return failed(at); // not shorthand `{a, b}`: code
      // never through the prototype: a key named __proto__ is dropped
      if (key.value !== "__proto__") result[key.value as string] = value;
      if (this.text[at] === "}") return { value: result, end: at + 1 };
      if (this.text[at] !== ",") return failed(at);
      at = this.skipSpace(at + 1);
      if (this.text[at] === "}") return { value: result, end: at + 1 };
    }
  }

  private key(at: number): Step {
    const c = this.text[at];
    if (c === '"' || c === "'") return this.string(at);
    let end = at;
    while (isWordChar(this.text[end])) end++;
    return end === at ? failed(at) : { value: this.text.slice(at, end), end };
  }

  private array(start: number, depth: number): Step {
    this.guard(depth);
    const result: unknown[] = [];
    let at = this.skipSpace(start + 1);
    for (;;) {
      const c = this.text[at];
      if (c === "]") return { value: result, end: at + 1 };
      if (c === ",") {
        result.push(undefined); // a hole
        at = this.skipSpace(at + 1);
        continue;
      }
      const step = this.value(at, depth + 1);
      if (isFailed(step)) return step;
      result.push(step.value);
      at = this.skipSpace(step.end);
      if (this.text[at] === ",") at = this.skipSpace(at + 1);
      else if (this.text[at] !== "]") return failed(at);
    }
  }

  /** A quoted string with JavaScript escapes; a template with `${` is an expression (undefined). */
  string(start: number): Step {
    const quote = this.text[start] as string;
    const parts: string[] = [];
    let from = start + 1;
    for (let at = from; at < this.text.length; at++) {
      const c = this.text[at];
      if (c === quote) {
        parts.push(this.text.slice(from, at));
        return { value: parts.join(""), end: at + 1 };
      }
      if (quote !== "`" && (c === "\n" || c === "\r")) return failed(at);
      if (quote === "`" && c === "$" && this.text[at + 1] === "{") return this.expression(start);
      if (c !== "\\") continue;
      parts.push(this.text.slice(from, at));
      const escape = this.escape(at + 1);
      parts.push(escape.value as string);
      at = escape.end - 1;
      from = escape.end;
    }
    return failed(this.text.length);
  }

  private escape(at: number): Parsed {
    const c = this.text[at] ?? "";
    const hex = (length: number, from: number) => {
      const digits = this.text.slice(from, from + length);
      return /^[\da-f]+$/i.test(digits) && digits.length === length ? Number.parseInt(digits, 16) : null;
    };
    if (c === "x" || c === "u") {
      if (c === "u" && this.text[at + 1] === "{") {
        const close = this.text.slice(at + 2, at + 9).indexOf("}") + at + 2;
        const code = close > at + 2 ? hex(close - at - 2, at + 2) : null;
        if (code !== null && code <= 0x10ffff) return { value: String.fromCodePoint(code), end: close + 1 };
      }
      const length = c === "x" ? 2 : 4;
      const code = hex(length, at + 1);
      if (code !== null) return { value: String.fromCharCode(code), end: at + 1 + length };
    }
    if (c === "\r" && this.text[at + 1] === "\n") return { value: "", end: at + 2 };
    if (c === "\n" || c === "\r") return { value: "", end: at + 1 };
    return { value: ESCAPES[c] ?? c, end: at + 1 };
  }

  private number(start: number): Step {
    let at = start;
    if (this.text[at] === "-" || this.text[at] === "+") at++;
    const digitsFrom = at;
    while (isDigit(this.text[at])) at++;
    if (this.text[at] === ".") for (at++; isDigit(this.text[at]);) at++;
    if (at === digitsFrom || (at === digitsFrom + 1 && this.text[digitsFrom] === ".")) {
      // `-Infinity` and friends are not finite figures; anything else here is code
      return this.text.startsWith("Infinity", at) ? { value: null, end: at + 8 } : failed(at);
    }
    if (this.text[at] === "e" || this.text[at] === "E") {
      let exponent = at + 1;
      if (this.text[exponent] === "-" || this.text[exponent] === "+") exponent++;
      if (isDigit(this.text[exponent])) for (at = exponent; isDigit(this.text[at]);) at++;
    }
    const value = Number(this.text.slice(start, at));
    if (this.text[at] === "n") at++; // a BigInt literal
    return { value: Number.isFinite(value) ? value : null, end: at };
  }

  /** A keyword, a reference (`$R[3]`), an assignment to one (`$R[3]={...}`), or code (skipped). */
  private word(start: number, depth: number): Step {
    let at = start;
    while (isWordChar(this.text[at])) at++;
    const word = this.text.slice(start, at);
    if (Object.hasOwn(WORDS, word)) return { value: WORDS[word], end: at };
    while (this.text[at] === "[" && isDigit(this.text[at + 1])) {
      let close = at + 1;
      while (isDigit(this.text[close])) close++;
      if (this.text[close] !== "]") break;
      at = close + 1;
    }
    const next = this.skipSpace(at);
    if (this.text[next] === "=" && this.text[next + 1] !== "=" && this.text[next + 1] !== ">") {
      this.guard(depth + 1);
      return this.value(next + 1, depth + 1);
    }
    if ([",", "}", "]", ")", undefined].includes(this.text[next])) return { value: undefined, end: next };
    return this.expression(start);
  }

  /** Code where a value was expected: skipped to the comma or closing bracket that ends it, read as undefined. */
  private expression(start: number): Step {
    let open = 0;
    for (let at = start; at < this.text.length; at++) {
      const c = this.text[at];
      if (c === '"' || c === "'" || c === "`") {
        const step = c === "`" ? this.templateEnd(at) : this.string(at);
        if (isFailed(step)) return step;
        at = step.end - 1;
      } else if (c === "(" || c === "[" || c === "{") open++;
      else if (c === ")" || c === "]" || c === "}") {
        if (open === 0) return { value: undefined, end: at };
        open--;
      } else if (c === "," && open === 0) return { value: undefined, end: at };
    }
    return failed(this.text.length);
  }

  /** The end of a template string, `${...}` parts included (their own strings are not looked into). */
  templateEnd(start: number): Step {
    for (let at = start + 1; at < this.text.length; at++) {
      if (this.text[at] === "\\") at++;
      else if (this.text[at] === "`") return { value: undefined, end: at + 1 };
    }
    return failed(this.text.length);
  }
}
