import { JsonScanError, lineAndColumn, MAX_JSON_DEPTH, scanJson, stripBom } from "./json-scanner.js";

/**
 * Where a JSON text first goes wrong. JSON.parse's messages differ across Node versions, sometimes
 * carry no position and sometimes quote the text (which may hold a secret), so we scan ourselves.
 */
export interface JsonSyntaxProblem {
  line: number;
  column: number;
  problem: string;
  /** "depth": valid JSON, but nested deeper than we accept. */
  kind: "syntax" | "depth";
}

/** Null when the text is JSON nested at most `maxDepth` deep; a leading byte order mark is ignored. */
export function findJsonSyntaxProblem(text: string, maxDepth = MAX_JSON_DEPTH): JsonSyntaxProblem | null {
  const json = stripBom(text);
  try {
    scanJson(json, { maxDepth });
    return null;
  } catch (error) {
    if (!(error instanceof JsonScanError)) throw error;
    return { ...lineAndColumn(json, error.offset), problem: error.message, kind: error.kind };
  }
}
