/**
 * Where a JSON text first goes wrong. JSON.parse's messages differ across Node versions, sometimes
 * carry no position and sometimes quote the text (which may hold a secret), so we scan ourselves.
 */
export interface JsonSyntaxProblem {
  line: number;
  column: number;
  problem: string;
}

export function findJsonSyntaxProblem(text: string): JsonSyntaxProblem | null {
  let i = 0;
  const fail = (problem: string): never => {
    throw Object.assign(new Error(problem), { offset: i });
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
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match || match[0] === "" || match[0] === "-") fail(`unexpected ${describe(text[i])}`);
    i += (match as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") return object();
    if (c === "[") return array();
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
      string();
      ws();
      if (text[i] !== ":") fail(`expected ':' after a property name, found ${describe(text[i])}`);
      i++;
      value();
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
    for (;;) {
      value();
      ws();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === "]") return void i++;
      fail(`expected ',' or ']' after an array element, found ${describe(text[i])}`);
    }
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    value();
    ws();
    if (i < text.length) fail(`unexpected ${describe(text[i])} after the end of the document`);
    return null;
  } catch (error) {
    const offset = (error as { offset?: number }).offset ?? 0;
    const before = text.slice(0, offset).split("\n");
    return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1, problem: (error as Error).message };
  }
}

function describe(c: string | undefined): string {
  if (c === undefined) return "end of file";
  if (c === "\n") return "a line break";
  return `'${c}'`;
}
