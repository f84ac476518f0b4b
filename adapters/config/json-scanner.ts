/**
 * A JSON scanner that knows where it is: it reports the first problem by offset, refuses values
 * nested deeper than a bound (so it, and everything that walks the parsed value later, recurses a
 * bounded number of times), and can tell a visitor where each value starts and under which path.
 */

/** Object keys and array indexes from the top of the document. */
export type JsonPath = readonly (string | number)[];

/** How deep containers may nest in a config file; far more than any real config needs. */
export const MAX_JSON_DEPTH = 64;

export interface ScanOptions {
  maxDepth?: number;
  /** Called at the first character of every value, with the path that leads to it. */
  onValue?: (path: JsonPath, offset: number) => void;
}

export class JsonScanError extends Error {
  override name = "JsonScanError";
  constructor(
    readonly offset: number,
    readonly kind: "syntax" | "depth",
    problem: string,
  ) {
    super(problem);
  }
}

/** Editors hide a leading byte order mark; JSON.parse does not accept one. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** 1-based line and column of an offset, as an editor counts them. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < offset; at = text.indexOf("\n", at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/** Walks the whole text; throws a JsonScanError at the first problem. */
export function scanJson(text: string, options: ScanOptions = {}): void {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const visit = options.onValue;
  const path: (string | number)[] = [];
  let i = 0;
  let depth = 0;
  const fail = (problem: string, kind: "syntax" | "depth" = "syntax"): never => {
    throw new JsonScanError(i, kind, problem);
  };
  const ws = () => {
    while (i < text.length && " \t\r\n".includes(text[i] as string)) i++;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${describe(text[i])}`);
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text[i] as string;
      if (c === '"') return void i++;
      if (c === "\\") {
        const next = text[i + 1];
        if (next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else fail("invalid escape in string");
      } else if (c < " ") fail("control character in string");
      else i++;
    }
    fail("unterminated string");
  };
  const number = () => {
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (!match) fail(`unexpected ${describe(text[i])}`);
    i += (match as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    ws();
    visit?.(path, i);
    const c = text[i];
    if (c === "{" || c === "[") {
      if (++depth > maxDepth) fail(`nested deeper than ${maxDepth} levels`, "depth");
      if (c === "{") object();
      else array();
      depth--;
      return;
    }
    if (c === '"') return string();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return number();
    fail(c === undefined ? "unexpected end of file" : `unexpected ${describe(c)}`);
  };
  const object = () => {
    i++;
    ws();
    if (text[i] === "}") return void i++;
    for (;;) {
      ws();
      if (text[i] !== '"') fail(`expected a property name in double quotes, found ${describe(text[i])}`);
      const keyStart = i;
      string();
      // decoded only for a visitor: the scan alone never needs the name
      path.push(visit ? (JSON.parse(text.slice(keyStart, i)) as string) : "");
      ws();
      if (text[i] !== ":") fail(`expected ':' after a property name, found ${describe(text[i])}`);
      i++;
      value();
      path.pop();
      ws();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === "}") return void i++;
      fail(`expected ',' or '}' after a property value, found ${describe(text[i])}`);
    }
  };
  const array = () => {
    i++;
    ws();
    if (text[i] === "]") return void i++;
    for (let index = 0; ; index++) {
      path.push(index);
      value();
      path.pop();
      ws();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === "]") return void i++;
      fail(`expected ',' or ']' after an array element, found ${describe(text[i])}`);
    }
  };
  value();
  ws();
  if (i < text.length) fail(`unexpected ${describe(text[i])} after the end of the document`);
}

function describe(c: string | undefined): string {
  if (c === undefined) return "end of file";
  if (c === "\n") return "a line break";
  if (c < " " || c === "\u007f") return `control character U+${c.charCodeAt(0).toString(16).padStart(4, "0").toUpperCase()}`;
  return `'${c}'`;
}
