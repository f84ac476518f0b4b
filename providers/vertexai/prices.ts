/**
 * Claude prices in USD per million tokens. Source: Anthropic's public list prices for the Claude
 * API, which Vertex AI's global endpoint charges too, as of 2026-03-01 (the 4.5 and 4.6 rows are
 * the ones CodexBar v0.18 ships). Regional Vertex endpoints may charge more; Batch and
 * provisioned throughput are not modelled. Change PRICES_AS_OF with the table: the log cache
 * keeps costs computed with it and is rebuilt when it changes.
 */
export const PRICES_AS_OF = "2026-03-01";

interface Rates {
  input: number;
  output: number;
  /** Five-minute cache writes (`cache_creation_input_tokens`). */
  cacheWrite: number;
  cacheRead: number;
}

interface ModelPrice {
  base: Rates;
  /** Rates for a whole request whose prompt (input + cache write + cache read) is over 200k tokens. */
  longContext?: Rates;
}

const rates = (input: number, output: number, cacheWrite: number, cacheRead: number): Rates => ({ input, output, cacheWrite, cacheRead });

const OPUS_4_5 = { base: rates(5, 25, 6.25, 0.5) };
const OPUS_4 = { base: rates(15, 75, 18.75, 1.5) };
const SONNET_4 = { base: rates(3, 15, 3.75, 0.3), longContext: rates(6, 22.5, 7.5, 0.6) };
const SONNET_3 = { base: rates(3, 15, 3.75, 0.3) };

/** By the model's name without its date (direct `-20250929` and Vertex `@20250929` alike). */
const TABLE: Readonly<Record<string, ModelPrice>> = {
  "claude-opus-4-6": OPUS_4_5,
  "claude-opus-4-5": OPUS_4_5,
  "claude-opus-4-1": OPUS_4,
  "claude-opus-4": OPUS_4,
  "claude-sonnet-4-5": SONNET_4,
  "claude-sonnet-4": SONNET_4,
  "claude-haiku-4-5": { base: rates(1, 5, 1.25, 0.1) },
  "claude-3-7-sonnet": SONNET_3,
  "claude-3-5-sonnet": SONNET_3,
  "claude-3-5-haiku": { base: rates(0.8, 4, 1, 0.08) },
  "claude-3-opus": OPUS_4,
  "claude-3-haiku": { base: rates(0.25, 1.25, 0.3, 0.03) },
};

const LONG_CONTEXT_TOKENS = 200_000;

/**
 * The name a model is priced and listed under: `claude-sonnet-4-5@20250929`,
 * `claude-sonnet-4-5-20250929`, `publishers/anthropic/models/claude-sonnet-4-5@20250929` and
 * Bedrock's `us.anthropic.claude-sonnet-4-5-20250929-v1:0` are all `claude-sonnet-4-5`.
 */
export function modelKey(model: string): string {
  let name = model.trim().toLowerCase();
  name = name.slice(name.lastIndexOf("/") + 1);
  const at = name.indexOf("@");
  if (at > 0) name = name.slice(0, at);
  const claude = name.lastIndexOf("claude-");
  if (claude > 0 && name[claude - 1] === ".") name = name.slice(claude);
  return name.replace(/-v\d+(?::\d+)?$/, "").replace(/-\d{8}$/, "");
}

export const isPriced = (key: string): boolean => key in TABLE;

export interface TokenCounts {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
  /** Of `cacheWrite`, the one-hour writes (priced at twice the input rate). */
  cacheWrite1h: number;
}

/** What one request cost in nanodollars (whole numbers, so sums are exact); null for a model without a price. */
export function costNanos(key: string, tokens: TokenCounts): number | null {
  const price = TABLE[key];
  if (!price) return null;
  const prompt = tokens.input + tokens.cacheWrite + tokens.cacheRead;
  const r = prompt > LONG_CONTEXT_TOKENS && price.longContext ? price.longContext : price.base;
  // USD per million tokens is nanodollars per thousand tokens: x 1000 per token
  const perToken = (usdPerMillion: number) => Math.round(usdPerMillion * 1000);
  return (
    tokens.input * perToken(r.input) +
    tokens.output * perToken(r.output) +
    (tokens.cacheWrite - tokens.cacheWrite1h) * perToken(r.cacheWrite) +
    tokens.cacheWrite1h * perToken(2 * r.input) +
    tokens.cacheRead * perToken(r.cacheRead)
  );
}
