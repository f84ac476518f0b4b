import { homeOf, isObject, joinPath, MAX_DEPTH, type JsonObject } from "../index.js";
import type { Environment } from "../../../ports/environment.js";
import { modelFacts, requestNanos, type Backend, type ModelFacts } from "./prices.js";
import { answerKey, countOf, NO_KEY, sameInLatin1, setAmounts, timeOf, type LineOutcome, type RequestSink } from "./log-entry.js";

/**
 * Claude Code's session logs (JSON Lines under `projects/`, sub-agents' files included): which
 * lines are requests, which API served them, and what each one used.
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

export const isClaudeLog = (name: string): boolean => name.toLowerCase().endsWith(".jsonl");

/** Every counted line holds this (its `"usage":` key); the scan looks at no other line. Six bytes, for the search's sake (line-files.ts). */
export const CLAUDE_USAGE_MARK = 'usage"';

/**
 * Whether a line names Vertex or GCP anywhere (in any of the usual cases): only then is its metadata
 * searched. Five plain words in one pattern (half the time of five searches); a case-blind pattern
 * over every line costs more than the parse.
 */
const VERTEX_WORDS = /ertex|ERTEX|gcp|GCP|Gcp/;
const namesVertexAnywhere = (raw: string) => VERTEX_WORDS.test(raw);
const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(2200, 0, 1);

/**
 * Puts the request a line records in `into`: none for a line that is not one (a user turn, Claude
 * Code's own `<synthetic>` notes); "bad" for a request line whose counts cannot be trusted
 * (negative, text, fractions), which is counted as skipped rather than guessed at. (Most lines are
 * read from their bytes instead, claude-bytes.ts, with the same checks in the same order.)
 */
export function claudeEntry(line: unknown, raw: string, session: string, into: RequestSink, exact = true): LineOutcome {
  if (!isObject(line)) return "none";
  const message = line.message;
  if (!isObject(message)) return "none";
  const { usage, model } = message;
  // read as Latin-1 (log-read.ts): the texts used below must be ASCII, else the line's UTF-8 is read
  if (!exact && ![model, message.id, line.requestId, line.sessionId, line.timestamp].every(sameInLatin1)) return "again";
  if (!isObject(usage) || typeof model !== "string" || !isRequestModel(model)) return "none";
  if (typeof line.timestamp !== "string") return "none";
  const at = timeOf(line.timestamp);
  if (!isLogTime(at)) return "bad";
  // the four counts, as ccusage reads them: input and output required, a `cache_creation` split wins over the aggregate
  const input = countOf(usage.input_tokens);
  const output = countOf(usage.output_tokens);
  let cacheWrite = countOf(usage.cache_creation_input_tokens ?? 0);
  const cacheRead = countOf(usage.cache_read_input_tokens ?? 0);
  if (input === null || output === null || cacheWrite === null || cacheRead === null) return "bad";
  let cacheWrite1h = 0;
  const split = usage.cache_creation;
  if (isObject(split)) {
    const fiveMinutes = countOf(split.ephemeral_5m_input_tokens ?? 0);
    const oneHour = countOf(split.ephemeral_1h_input_tokens ?? 0);
    if (fiveMinutes === null || oneHour === null) return "bad";
    cacheWrite = fiveMinutes + oneHour;
    cacheWrite1h = oneHour;
  }
  if (input + output + cacheWrite + cacheRead === 0) return "none";
  const facts = modelFacts(model);
  const backend = backendOf(line, message, facts.backend, raw);
  const id = message.id;
  const request = line.requestId;
  const key = typeof id === "string" && id !== "" && typeof request === "string" && request !== "" ? answerKey(id, request) : NO_KEY;
  setAmounts(into, input, output, cacheWrite, cacheRead, requestNanos(facts, input, output, cacheWrite, cacheWrite1h, cacheRead));
  return addRequest(into, facts, backend, sessionOf(line, session), key, at, line.isSidechain === true);
}

/** A model that makes a request line: not Claude Code's own `<synthetic>` notes, not blank. */
export const isRequestModel = (model: string): boolean => model !== "<synthetic>" && model.trim() !== "";

/** A line's time that is a real one (a year from 2000 to 2200): another is a line not trusted. */
export const isLogTime = (at: number): boolean => at >= EARLIEST && at <= LATEST;

/** Counts the request whose amounts are set (`setAmounts`) under its row: "bad" when the record has no room for another row. */
export function addRequest(
  into: RequestSink,
  facts: ModelFacts,
  backend: Backend,
  session: string,
  key: number,
  at: number,
  sidechain: boolean,
): LineOutcome {
  const row = into.row(backend, facts.key, session);
  if (row < 0) return "bad";
  into.add(key, at, row, sidechain);
  return "counted";
}

const sessionOf = (line: JsonObject, fallback: string) =>
  typeof line.sessionId === "string" && line.sessionId !== "" ? line.sessionId : fallback;

/**
 * Vertex AI, in the spec's order: the model's `@` version separator (`claude-sonnet-4-5@20250929`);
 * the `_vrtx_` marker of Vertex message and request ids (Claude Code keeps the dash form of the
 * model on Vertex); then metadata naming Vertex. Else Bedrock by its `anthropic.` ids, else Anthropic.
 */
function backendOf(line: JsonObject, message: JsonObject, byModel: Backend, raw: string): Backend {
  if (byModel !== "anthropic") return byModel;
  if (isVertexId(message.id) || isVertexId(line.requestId)) return "vertexai";
  return namesVertexAnywhere(raw) && namesVertex(line, message) ? "vertexai" : "anthropic";
}

const isVertexId = (id: unknown) => typeof id === "string" && id.includes("_vrtx_");

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
    for (const key of Object.keys(value)) {
      // as key.toLowerCase().includes(...): no other letter lower-cases to one of these
      if (NAMES_VERTEX.test(key)) return true;
      const child = value[key];
      if (typeof child === "string") {
        if (key.length <= LONGEST_SOURCE_KEY && SOURCE_KEYS.has(key.toLowerCase()) && VERTEX.test(child)) return true;
      } else if (depth < MAX_DEPTH && !(value === message && key === "content")) pending.push([child, depth + 1]);
    }
  }
  return false;
}

const NAMES_VERTEX = /vertex|gcp/i;
const VERTEX = /vertex/i;
const LONGEST_SOURCE_KEY = Math.max(...[...SOURCE_KEYS].map((key) => key.length));
