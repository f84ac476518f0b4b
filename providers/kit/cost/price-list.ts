import type { Environment } from "../../../ports/environment.js";
import { isObject, providerCache, tryJson } from "../index.js";
import { BUNDLED_PRICES, type ModelPrice, type PriceTable, type Rates } from "./prices.js";

/**
 * `quotabar cost --update-prices`: LiteLLM's public price list (the one ccusage bundles), turned
 * into quotabar's table for the same models and kept in the cache directory. Nothing replaces the
 * bundled table until the whole answer is checked: a bad or partial list is refused, with the reason.
 */

export const LITELLM_PRICES_URL = "https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json";

const KEY = "cost-prices";
/** A list that lacks more of the bundled models than this is partial (a cut answer, a different file). */
const MISSING_ALLOWED = 0.25;
const MIN_ENTRIES = 50;

export type PriceListOutcome = { table: PriceTable; kept: string[] } | { problem: string };

/** The table a LiteLLM price list gives for the bundled models, or why it is refused. Rows it lacks keep the bundled price. */
export function priceListFromLiteLlm(body: string, asOf: string): PriceListOutcome {
  const list = tryJson(body);
  if (!isObject(list)) return { problem: "the answer is not a JSON object" };
  if (Object.keys(list).length < MIN_ENTRIES)
    return { problem: `the answer lists ${Object.keys(list).length} models, fewer than ${MIN_ENTRIES}` };
  const models: Record<string, ModelPrice> = {};
  const kept: string[] = [];
  for (const [key, bundled] of Object.entries(BUNDLED_PRICES.models)) {
    const name = entryName(list, key);
    if (name === null) {
      models[key] = bundled;
      kept.push(key);
      continue;
    }
    const row = rowOf(list[name]);
    if (typeof row === "string") return { problem: `${name}: ${row}` };
    models[key] = row;
  }
  const total = Object.keys(BUNDLED_PRICES.models).length;
  if (kept.length > total * MISSING_ALLOWED)
    return { problem: `the answer lacks ${kept.length} of the ${total} models priced here (${kept.slice(0, 5).join(", ")}...)` };
  return { table: { asOf, models }, kept };
}

/** LiteLLM's key for a model: its own name, else a dated one (`claude-3-5-haiku-20241022`). */
function entryName(list: Record<string, unknown>, key: string): string | null {
  if (isObject(list[key])) return key;
  const dated = new RegExp(`^${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}-\\d{8}$`);
  return Object.keys(list).find((name) => dated.test(name) && isObject(list[name])) ?? null;
}

const PER_MILLION = 1e6;

/** USD per token to USD per million; a field that is there must be a non-negative number. */
function rate(entry: Record<string, unknown>, field: string): number | null | undefined {
  const value = entry[field];
  if (value === undefined || value === null) return undefined;
  return typeof value === "number" && Number.isFinite(value) && value >= 0 && value < 1
    ? Math.round(value * PER_MILLION * 1e6) / 1e6
    : null;
}

function rowOf(entry: unknown): ModelPrice | string {
  if (!isObject(entry)) return "not an object";
  const read = (suffix: string): Rates | string | null => {
    const [input, output, cacheWrite, cacheRead] = [
      "input_cost_per_token",
      "output_cost_per_token",
      "cache_creation_input_token_cost",
      "cache_read_input_token_cost",
    ].map((field) => rate(entry, field + suffix));
    if ([input, output, cacheWrite, cacheRead].includes(null)) return "a price that is not a number of USD per token";
    if (input === undefined || output === undefined) return suffix ? null : "no input or output price";
    return { input, output, cacheWrite: cacheWrite ?? 0, cacheRead: cacheRead ?? null } as Rates;
  };
  const base = read("");
  if (base === null || typeof base === "string") return base ?? "no price";
  const tier = Object.keys(entry)
    .map((field) => /^input_cost_per_token_above_(\d+)k_tokens$/.exec(field)?.[1])
    .find((k) => k !== undefined);
  if (tier === undefined) return base;
  const longContext = read(`_above_${tier}k_tokens`);
  if (typeof longContext === "string") return longContext;
  return longContext ? { ...base, longContext: { ...longContext, threshold: Number(tier) * 1000 } } : base;
}

/** The fetched table kept in the cache directory, when there is a sane one; else the bundled table. */
export async function keptPrices(env: Environment): Promise<PriceTable> {
  const value = tryJson(
    (await providerCache(env)
      .read(KEY)
      .catch(() => null)) ?? "",
  );
  return isTable(value) ? value : BUNDLED_PRICES;
}

export async function keepPrices(env: Environment, table: PriceTable): Promise<void> {
  await providerCache(env).write(KEY, JSON.stringify(table));
}

const isRate = (n: unknown) => typeof n === "number" && Number.isFinite(n) && n >= 0;
const isRates = (r: unknown): boolean =>
  isObject(r) && isRate(r.input) && isRate(r.output) && isRate(r.cacheWrite) && (r.cacheRead === null || isRate(r.cacheRead));

function isTable(value: unknown): value is PriceTable {
  if (!isObject(value) || typeof value.asOf !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value.asOf) || !isObject(value.models))
    return false;
  return Object.values(value.models).every(
    (row) =>
      isRates(row) &&
      (!isObject(row) ||
        row.longContext === undefined ||
        (isRates(row.longContext) && isRate((row.longContext as { threshold?: unknown }).threshold))),
  );
}
