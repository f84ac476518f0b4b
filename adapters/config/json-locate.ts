import { lineAndColumn, type JsonPath, MAX_JSON_DEPTH, scanJson } from "./json-scanner.js";

/**
 * Line and column where the value at `path` starts, or where its nearest present ancestor starts
 * (a missing field points at the object that lacks it). Null only when the text is not JSON.
 * A repeated key points at its last occurrence, the one JSON.parse keeps.
 */
export function locateJsonValue(text: string, path: JsonPath): { line: number; column: number } | null {
  const starts: number[] = []; // starts[n]: where the value at the first n parts of path begins
  try {
    scanJson(text, {
      maxDepth: MAX_JSON_DEPTH,
      onValue: (at, offset) => {
        if (at.length > path.length || !at.every((part, i) => part === path[i])) return;
        starts.length = at.length; // a later occurrence of an ancestor replaces what was found under the earlier one
        starts[at.length] = offset;
      },
    });
  } catch {
    return null;
  }
  const deepest = starts.at(-1);
  return deepest === undefined ? null : lineAndColumn(text, deepest);
}
