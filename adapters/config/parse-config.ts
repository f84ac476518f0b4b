import type { QuotabarConfig } from "../../ports/config-store.js";
import { ConfigFileError } from "./config-file-error.js";
import { checkConfig } from "./config-schema.js";
import { locateJsonValue } from "./json-locate.js";
import { stripBom } from "./json-scanner.js";
import { findJsonSyntaxProblem } from "./json-syntax-error.js";

/** The config in a text, or a ConfigFileError naming `path`, the line and column, and the problem. */
export function parseConfig(path: string, text: string): QuotabarConfig {
  const json = stripBom(text);
  // scanned before JSON.parse so that a too-deep value never reaches code that walks it
  const found = findJsonSyntaxProblem(json);
  if (found) {
    const problem = found.kind === "syntax" ? `invalid JSON: ${found.problem}` : `values ${found.problem}`;
    throw new ConfigFileError(path, problem, found.line, found.column);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new ConfigFileError(path, "invalid JSON: cannot parse");
  }
  const checked = checkConfig(raw);
  if (!checked.issue) return checked.config;
  const { path: at, message, other } = checked.issue;
  const where = locateJsonValue(json, at);
  const otherLine = other ? locateJsonValue(json, other)?.line : undefined;
  const also = otherLine !== undefined ? ` (line ${otherLine})` : "";
  throw new ConfigFileError(path, `${describePath(at)} ${message}${also}`, where?.line ?? null, where?.column ?? null);
}

function describePath(path: readonly (string | number)[]): string {
  if (path.length === 0) return "the top level";
  return path.map((part, i) => (typeof part === "number" ? `[${part}]` : i === 0 ? part : `.${part}`)).join("");
}
