import { homeOf, isObject, joinPath, type JsonObject } from "../index.js";
import type { Environment } from "../../../ports/environment.js";
import { modelFacts, requestNanos } from "./prices.js";
import { countOf, NO_KEY, sameInLatin1, setAmounts, timeOf, type LineOutcome, type RequestSink } from "./log-entry.js";

/**
 * Codex's rollout files (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`, and the archived ones):
 * `turn_context` lines say the model, `token_count` events what each turn used. A file is read in
 * order, so what an event means depends on what came before it: that is the `CodexState` kept with
 * the file's record, so an appended event is read as the whole file would read it.
 */

/** `$CODEX_HOME` (default ~/.codex): its `sessions` first, so a file in both is read from there. */
export function codexLogRoots(env: Environment): string[] {
  const home = env.CODEX_HOME?.trim() || joinPath(homeOf(env), ".codex");
  return [joinPath(home, "sessions"), joinPath(home, "archived_sessions")];
}

export const isCodexLog = (name: string): boolean => name.toLowerCase().endsWith(".jsonl");

/** `"type":"turn_context"` and `"type":"token_count"` both hold it (and little else does). Six bytes, for the search's sake (line-files.ts). */
export const CODEX_MARK = 'pe":"t';
export const mayBeCodexEvent = (raw: string): boolean => raw.includes("token_count") || raw.includes("turn_context");

export interface CodexState {
  /** The model of the turn under way; null before the first turn_context. */
  model: string | null;
  /** The last cumulative counts seen (input, cached, output, reasoning): a repeat is a re-emitted event. */
  total: number[] | null;
}

export const freshCodexState = (): CodexState => ({ model: null, total: null });

/** When a session names no model, ccusage (and OpenUsage) count it as gpt-5: so does quotabar, to agree. */
const FALLBACK_MODEL = "gpt-5";

/** Puts the request a line records in `into` (none for most lines), "bad" for an event whose counts cannot be trusted. Updates `state`. */
export function codexEntry(line: unknown, state: CodexState, session: string, into: RequestSink, exact = true): LineOutcome {
  if (!isObject(line) || !isObject(line.payload)) return "none";
  const payload = line.payload;
  // read as Latin-1 (log-read.ts): the texts used below must be ASCII, else the line's UTF-8 is read (before the state changes)
  const info = isObject(payload.info) ? payload.info : null;
  if (!exact && ![line.timestamp, payload.model, payload.model_name, info?.model].every(sameInLatin1)) return "again";
  if (line.type === "turn_context") {
    const model = modelNamed(payload.model) ?? modelNamed(payload.model_name) ?? (info ? modelNamed(info.model) : null);
    if (model) state.model = model;
    return "none";
  }
  if (line.type !== "event_msg" || payload.type !== "token_count" || !info) return "none";
  const at = typeof line.timestamp === "string" ? timeOf(line.timestamp) : NaN;
  if (!Number.isFinite(at)) return "bad";
  const total = isObject(info.total_token_usage) ? usageOf(info.total_token_usage) : undefined;
  const last = isObject(info.last_token_usage) ? usageOf(info.last_token_usage) : undefined;
  if (total === null || last === null) return "bad";
  const inline = modelNamed(info.model) ?? modelNamed(payload.model);
  if (inline) state.model = inline;
  const previous = state.total;
  if (total) {
    state.total = total;
    // the same totals again: a stale snapshot re-emitted, whatever its last_token_usage says
    if (previous && total.every((n, i) => n === previous[i])) return "none";
  }
  const delta = last ?? (total ? total.map((n, i) => Math.max(0, n - (previous?.[i] ?? 0))) : null);
  if (!delta) return "none";
  const [input, rawCached, output] = delta as [number, number, number, number];
  if (input + output === 0) return "none";
  // cached input is part of input, reasoning part of output
  const cached = Math.min(rawCached, input);
  const facts = modelFacts(state.model ?? FALLBACK_MODEL);
  const row = into.row("openai", facts.key, session);
  if (row < 0) return "bad";
  setAmounts(into, input - cached, output, 0, cached, requestNanos(facts, input - cached, output, 0, 0, cached));
  into.add(NO_KEY, at, row, false);
  return "counted";
}

const modelNamed = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);

/** input, cached, output, reasoning; null when a count is there but not a whole non-negative number. */
function usageOf(usage: JsonObject): number[] | null {
  const input = countOrZero(usage.input_tokens);
  const cached = countOrZero(usage.cached_input_tokens ?? usage.cache_read_input_tokens);
  const output = countOrZero(usage.output_tokens);
  const reasoning = countOrZero(usage.reasoning_output_tokens);
  return input === null || cached === null || output === null || reasoning === null ? null : [input, cached, output, reasoning];
}

const countOrZero = (value: unknown): number | null => (value === undefined || value === null ? 0 : countOf(value));
