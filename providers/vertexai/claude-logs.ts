import { homeOf, isObject, joinPath, MAX_DEPTH, toNumber, type JsonObject } from "../kit/index.js";
import type { Environment } from "../../ports/environment.js";
import { localDay } from "./days.js";
import { costNanos, modelKey, type TokenCounts } from "./prices.js";

/**
 * Claude Code's session logs (JSON Lines under `projects/`): which lines are Vertex AI requests,
 * and what each one used.
 */

/** Each CLAUDE_CONFIG_DIR entry (comma-separated), else ~/.config/claude and ~/.claude: their `projects` folders. */
export function claudeLogRoots(env: Environment): string[] {
  const configured = (env.CLAUDE_CONFIG_DIR ?? "")
    .split(",")
    .map((dir) => dir.trim())
    .filter((dir) => dir !== "");
  if (configured.length > 0) return configured.map((dir) => (/(^|[\\/])projects[\\/]*$/.test(dir) ? dir : joinPath(dir, "projects")));
  const home = homeOf(env);
  return [joinPath(home, ".config", "claude", "projects"), joinPath(home, ".claude", "projects")];
}

export const isLogFile = (name: string): boolean => name.toLowerCase().endsWith(".jsonl");

/** Every counted line holds this; the scan looks at no other line. */
export const USAGE_MARK = '"usage"';

const VERTEX_WORD = /vertex|gcp/i;

/** Whether a line's raw text could be a Vertex request at all: worth parsing. Cheap, and never wrong in the other direction. */
export function mayBeVertex(raw: string): boolean {
  return raw.includes("assistant") && (raw.includes("@") || raw.includes("_vrtx_") || VERTEX_WORD.test(raw));
}

/** One assistant request: `amounts` are input, output, cache write, cache read, cost in nanodollars, requests (1). */
export interface LogEntry {
  /** `message.id:requestId`: streamed chunks of one answer repeat it; null when either is missing (always counted). */
  key: string | null;
  day: string;
  model: string;
  amounts: number[];
}

/** The Vertex request a line records; null for any other line; undefined when the text is not JSON (a line still being written). */
export function vertexEntry(text: string): LogEntry | null | undefined {
  let line: unknown;
  try {
    line = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(line) || line.type !== "assistant" || !isObject(line.message)) return null;
  const message = line.message;
  const { usage, model } = message;
  if (!isObject(usage) || typeof model !== "string" || model.trim() === "" || typeof line.timestamp !== "string") return null;
  const at = Date.parse(line.timestamp);
  if (!(at >= EARLIEST && at <= LATEST) || !isVertex(line, message, model)) return null;
  const tokens = tokenCounts(usage);
  if (tokens.input + tokens.output + tokens.cacheWrite + tokens.cacheRead === 0) return null;
  const key = modelKey(model);
  const id = message.id;
  const request = line.requestId;
  return {
    key: typeof id === "string" && id !== "" && typeof request === "string" && request !== "" ? `${id}:${request}` : null,
    day: localDay(at),
    model: key,
    amounts: [tokens.input, tokens.output, tokens.cacheWrite, tokens.cacheRead, costNanos(key, tokens) ?? 0, 1],
  };
}

const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(2200, 0, 1);

/** A count as a whole number: numeric text accepted, anything else (negative included) is 0. */
const count = (value: unknown) => Math.max(0, Math.trunc(toNumber(value) ?? 0));

function tokenCounts(usage: JsonObject): TokenCounts {
  const cacheWrite = count(usage.cache_creation_input_tokens);
  const split = isObject(usage.cache_creation) ? usage.cache_creation : {};
  return {
    input: count(usage.input_tokens),
    output: count(usage.output_tokens),
    cacheWrite,
    cacheRead: count(usage.cache_read_input_tokens),
    cacheWrite1h: Math.min(cacheWrite, count(split.ephemeral_1h_input_tokens)),
  };
}

/**
 * In the spec's order: the model's `@` version separator (`claude-sonnet-4-5@20250929`, the
 * direct form has `-20250929`); the `_vrtx_` marker of Vertex message and request ids (Claude
 * Code keeps the dash form of the model on Vertex); then metadata naming Vertex.
 */
function isVertex(line: JsonObject, message: JsonObject, model: string): boolean {
  const at = model.indexOf("@");
  if (at > 0 && at < model.length - 1) return true;
  if ([message.id, line.requestId].some((id) => typeof id === "string" && id.includes("_vrtx_"))) return true;
  return namesVertex(line, message);
}

/** Keys whose text value says which API served the request. */
const SOURCE_KEYS = new Set([
  "provider",
  "platform",
  "backend",
  "api_provider",
  "apiprovider",
  "api_type",
  "apitype",
  "source",
  "vendor",
  "client",
]);
const MAX_NODES = 5_000;

/**
 * Anywhere in the line (`metadata.provider: "vertexai"`, `request.gcpProject`, ...): a key naming
 * vertex or gcp, or a source-like key whose text names vertex. The answer itself
 * (`message.content`) is what the model wrote, not metadata, and is not searched.
 */
function namesVertex(line: JsonObject, message: JsonObject): boolean {
  const pending: [unknown, number][] = [[line, 0]];
  for (let visited = 0; pending.length > 0 && visited < MAX_NODES; visited++) {
    const [value, depth] = pending.pop() as [unknown, number];
    if (Array.isArray(value)) {
      if (depth < MAX_DEPTH) for (const item of value) pending.push([item, depth + 1]);
      continue;
    }
    if (!isObject(value)) continue;
    for (const [key, child] of Object.entries(value)) {
      const name = key.toLowerCase();
      if (name.includes("vertex") || name.includes("gcp")) return true;
      if (typeof child === "string") {
        if (SOURCE_KEYS.has(name) && child.toLowerCase().includes("vertex")) return true;
      } else if (depth < MAX_DEPTH && !(value === message && key === "content")) pending.push([child, depth + 1]);
    }
  }
  return false;
}
