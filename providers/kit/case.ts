import { isObject, MAX_DEPTH } from "./search.js";

// "quotaResetDateUTC" -> "quota_reset_date_utc": an acronym is one word
const snake = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();

/** Keys folded to snake_case, deeply (bounded), so one schema reads `quotaSnapshots` and `quota_snapshots`. */
export function snakeKeys(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return null;
  if (Array.isArray(value)) return value.map((item) => snakeKeys(item, depth + 1));
  if (!isObject(value)) return value;
  const folded: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const name = snake(key);
    // the snake_case original wins over a camelCase twin
    if (!(name in folded) || name === key) folded[name] = snakeKeys(child, depth + 1);
  }
  return folded;
}
