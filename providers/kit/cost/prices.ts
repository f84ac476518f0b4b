/**
 * What a request of Claude Code or Codex would have cost at API list prices: the price table, how a
 * logged model id finds its row, and the arithmetic. Pure: no I/O (a fetched table comes in through
 * `usePrices`).
 *
 * The bundled rows are the prices ccusage 20.0.24 (released 2026-09-22) applies offline, from the
 * LiteLLM price list it bundles, in USD per million tokens. Change PRICES_AS_OF with the table: the
 * log index keeps costs computed with it and is rebuilt when the prices change.
 */
export const PRICES_AS_OF = "2026-09-22";

export type Agent = "claude" | "codex";
export type Backend = "anthropic" | "vertexai" | "bedrock" | "openai";

export interface Rates {
  input: number;
  output: number;
  /** Five-minute cache writes; a one-hour write is twice the input rate. */
  cacheWrite: number;
  /** Cached input read; a model without one bills cached input at the input rate. */
  cacheRead: number | null;
}

export interface ModelPrice extends Rates {
  /** Rates for a whole request whose prompt is over `threshold` tokens. */
  longContext?: Rates & { threshold: number };
}

export interface PriceTable {
  asOf: string;
  models: Readonly<Record<string, ModelPrice>>;
}

const rates = (input: number, output: number, cacheWrite: number, cacheRead: number | null): Rates => ({
  input,
  output,
  cacheWrite,
  cacheRead,
});
const price = (base: Rates, longContext?: Rates, threshold = 200_000): ModelPrice =>
  longContext ? { ...base, longContext: { ...longContext, threshold } } : base;

const OPUS_4_5 = price(rates(5, 25, 6.25, 0.5));
const OPUS_4 = price(rates(15, 75, 18.75, 1.5));
const SONNET_4 = price(rates(3, 15, 3.75, 0.3), rates(6, 22.5, 7.5, 0.6));
const SONNET_3 = price(rates(3, 15, 3.75, 0.3));
const GPT_5 = price(rates(1.25, 10, 0, 0.125));
const GPT_5_MINI = price(rates(0.25, 2, 0, 0.025));
const GPT_5_2 = price(rates(1.75, 14, 0, 0.175));
const GPT_5_6 = price(rates(4, 20, 5, 0.4), rates(8, 30, 10, 0.8), 272_000);
const GPT_PRO = price(rates(30, 180, 0, null), rates(60, 270, 0, null), 272_000);

/** By the model's name without date, version or provider prefix (`modelKey`). */
const BUNDLED: Readonly<Record<string, ModelPrice>> = {
  "claude-opus-5": OPUS_4_5,
  "claude-opus-4-8": OPUS_4_5,
  "claude-opus-4-7": OPUS_4_5,
  "claude-opus-4-6": OPUS_4_5,
  "claude-opus-4-5": OPUS_4_5,
  "claude-opus-4-1": OPUS_4,
  "claude-opus-4": OPUS_4,
  "claude-3-opus": OPUS_4,
  "claude-sonnet-5": price(rates(2, 10, 2.5, 0.2)),
  "claude-sonnet-4-6": SONNET_3,
  "claude-sonnet-4-5": SONNET_4,
  "claude-sonnet-4": SONNET_4,
  "claude-3-7-sonnet": SONNET_3,
  "claude-3-5-sonnet": SONNET_3,
  "claude-haiku-4-5": price(rates(1, 5, 1.25, 0.1)),
  "claude-3-5-haiku": price(rates(0.8, 4, 1, 0.08)),
  "claude-3-haiku": price(rates(0.25, 1.25, 0.3, 0.03)),
  "claude-fable-5": price(rates(10, 50, 12.5, 1)),
  "claude-fable-5-1": price(rates(10, 50, 12.5, 0.25)),
  "claude-mythos-5": price(rates(10, 50, 12.5, 1)),
  "gpt-5": GPT_5,
  "gpt-5-codex": GPT_5,
  "gpt-5.1": GPT_5,
  "gpt-5.1-codex": GPT_5,
  "gpt-5.1-codex-max": GPT_5,
  "gpt-5-mini": GPT_5_MINI,
  "gpt-5.1-codex-mini": GPT_5_MINI,
  "gpt-5-nano": price(rates(0.05, 0.4, 0, 0.005)),
  "gpt-5-pro": price(rates(15, 120, 0, null)),
  "gpt-5.2": GPT_5_2,
  "gpt-5.2-codex": GPT_5_2,
  "gpt-5.3-codex": GPT_5_2,
  "gpt-5.3-codex-spark": GPT_5_2,
  "gpt-5.2-pro": price(rates(21, 168, 0, null)),
  "gpt-5.4": price(rates(2.5, 15, 0, 0.25), rates(5, 22.5, 0, 0.5), 272_000),
  "gpt-5.4-mini": price(rates(0.75, 4.5, 0, 0.075)),
  "gpt-5.4-nano": price(rates(0.2, 1.25, 0, 0.02)),
  "gpt-5.4-pro": GPT_PRO,
  "gpt-5.5-pro": GPT_PRO,
  "gpt-5.5": price(rates(5, 30, 0, 0.5), rates(10, 45, 0, 1), 272_000),
  "gpt-5.6": GPT_5_6,
  "gpt-5.6-sol": GPT_5_6,
  "gpt-5.6-terra": price(rates(2, 12, 2.5, 0.2), rates(4, 18, 5, 0.4), 272_000),
  "gpt-5.6-luna": price(rates(0.2, 1.2, 0.25, 0.02), rates(0.4, 1.8, 0.5, 0.04), 272_000),
  "gpt-4.1": price(rates(2, 8, 0, 0.5)),
  "gpt-4o": price(rates(2.5, 10, 0, 1.25)),
  // as ccusage 20 prices these ids (its fuzzy match lands on another provider's row), to agree with it
  o3: price(rates(0.55, 2.2, 0, 0.275)),
  "o4-mini": price(rates(0.55, 2.2, 0, 0.1375)),
};

export const BUNDLED_PRICES: PriceTable = { asOf: PRICES_AS_OF, models: BUNDLED };

let current: PriceTable = BUNDLED_PRICES;

/** The table in force for this process: the bundled one, or a fetched one kept in the cache directory. */
export const prices = (): PriceTable => current;
export function usePrices(table: PriceTable): void {
  current = table;
}

/** AWS's regional premium on a Bedrock cross-region profile, for the (region, model) pairs the price list has it for. */
const REGIONAL_PREMIUM = 1.1;
const LATEST = ["haiku-4-5", "opus-4-7", "opus-4-8", "opus-5", "sonnet-4-5", "sonnet-4-6", "sonnet-5"];
const PREMIUM: Readonly<Record<string, readonly string[]>> = {
  us: [...LATEST, "opus-4-5", "opus-4-6", "fable-5", "fable-5-1"],
  eu: [...LATEST, "opus-4-6", "fable-5", "fable-5-1"],
  au: [...LATEST, "opus-4-6"],
  jp: LATEST,
};

/** What a logged model id says, worked out once per id (a log repeats a handful of ids thousands of times). */
export interface ModelFacts {
  /** The name it is priced and listed under (`modelKey`). */
  key: string;
  /** Which API served a Claude request, by its model id alone (Vertex's other marks are the log line's: `claude-logs.ts`). */
  backend: Backend;
  /** AWS's regional premium on a Bedrock cross-region profile (1 when none). */
  factor: number;
  /** Its row in `table`, the last table it was priced with. */
  table: PriceTable | null;
  price: ModelPrice | null;
}

export function modelFacts(model: string): ModelFacts {
  let facts = memo.get(model);
  if (facts === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    const key = normalised(model);
    memo.set(model, (facts = { key, backend: backendOfId(model), factor: regionalFactor(model, key), table: null, price: null }));
  }
  return facts;
}

const MEMO_LIMIT = 1_000;
const memo = new Map<string, ModelFacts>();

/**
 * The name a model is priced and listed under: `claude-sonnet-4-5@20250929`,
 * `claude-sonnet-4-5-20250929`, `publishers/anthropic/models/claude-sonnet-4-5@20250929`,
 * Bedrock's `us.anthropic.claude-sonnet-4-5-20250929-v1:0` are all `claude-sonnet-4-5`;
 * `openai/gpt-5.5-2026-04-23` is `gpt-5.5`.
 */
export const modelKey = (model: string): string => modelFacts(model).key;

function normalised(model: string): string {
  let name = model.trim().toLowerCase();
  name = name.slice(name.lastIndexOf("/") + 1);
  const at = name.indexOf("@");
  if (at > 0) name = name.slice(0, at);
  const claude = name.lastIndexOf("claude-");
  if (claude > 0 && name[claude - 1] === ".") name = name.slice(claude);
  return name
    .replace(/-v\d+(?::\d+)?$/, "")
    .replace(/-\d{8}$/, "")
    .replace(/-\d{4}-\d{2}-\d{2}$/, "");
}

function backendOfId(model: string): Backend {
  const name = model.trim().toLowerCase();
  if (name.includes("@")) return "vertexai";
  if (/(^|\.)anthropic\.claude-/.test(name)) return "bedrock";
  return "anthropic";
}

function regionalFactor(model: string, key: string): number {
  const region = /^([a-z]+)\.anthropic\./.exec(model.trim().toLowerCase())?.[1];
  // an own key only: a region read from a log is not trusted to name one ("constructor.anthropic...")
  return region && Object.hasOwn(PREMIUM, region) && PREMIUM[region]?.includes(key.replace(/^claude-/, "")) ? REGIONAL_PREMIUM : 1;
}

export interface TokenCounts {
  /** Not cached. */
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
  /** Of `cacheWrite`, the one-hour writes (priced at twice the input rate). */
  cacheWrite1h: number;
}

// USD per million tokens is 1000 nanodollars per token; each request's cost is rounded to whole nanodollars, so sums stay exact
const perToken = (usdPerMillion: number) => usdPerMillion * 1000;

/**
 * What one request cost in nanodollars; null for a model without a price. A prompt (input, cache
 * writes and reads) over the model's long-context threshold bills the whole request at the
 * long-context rates, as Anthropic and OpenAI bill it.
 */
export function costNanos(model: string, tokens: TokenCounts, table = current): number | null {
  return requestNanos(modelFacts(model), tokens.input, tokens.output, tokens.cacheWrite, tokens.cacheWrite1h, tokens.cacheRead, table);
}

/** costNanos of a model's facts and the counts as numbers (the log readers' form: no object per request). */
export function requestNanos(
  facts: ModelFacts,
  input: number,
  output: number,
  cacheWrite: number,
  cacheWrite1h: number,
  cacheRead: number,
  table = current,
): number | null {
  if (facts.table !== table) {
    // an own key only: "constructor" in a log is not a price
    facts.price = Object.hasOwn(table.models, facts.key) ? (table.models[facts.key] as ModelPrice) : null;
    facts.table = table;
  }
  const row = facts.price;
  if (row === null) return null;
  const r: Rates = row.longContext && input + cacheWrite + cacheRead > row.longContext.threshold ? row.longContext : row;
  const nanos =
    input * perToken(r.input) +
    output * perToken(r.output) +
    (cacheWrite - cacheWrite1h) * perToken(r.cacheWrite) +
    cacheWrite1h * perToken(2 * r.input) +
    cacheRead * perToken(r.cacheRead ?? r.input);
  return Math.round(nanos * facts.factor);
}
