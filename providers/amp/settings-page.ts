import { advice, findObject, isObject, jsLiterals, parseError, toNumber, type JsonObject } from "../kit/index.js";
import { parsePage, scriptTexts, visibleText } from "../kit/html.js";
import type { AmpFreeTier } from "./policy.js";

/** What the settings page showed: the free tier's usage, or a sign-in page. */
export type AmpPage = { kind: "usage"; tier: AmpFreeTier } | { kind: "signed-out" };

const changedPage = (detail: string) =>
  parseError(`Could not parse Amp usage: ${detail}`, advice("Amp may have changed its settings page; please report it."));

/**
 * The page's hydration scripts carry the server's data as JavaScript literals (bare keys), or as
 * JSON: `freeTierUsage: {...}`, or the prefetched `"<hash>/getFreeTierUsage/": {...}`.
 */
export function readSettingsPage(html: string): AmpPage {
  const page = parsePage(html, "Amp");
  const payload = freeTierPayload(scriptTexts(page));
  if (payload) return { kind: "usage", tier: freeTier(payload) };
  const text = visibleText(page).toLowerCase();
  // what a reader sees, so a bundle's "login" route name in a script does not count
  if (["sign in", "log in", "login"].some((words) => text.includes(words))) return { kind: "signed-out" };
  throw changedPage("the settings page has no freeTierUsage data.");
}

function freeTierPayload(scripts: string[]): JsonObject | null {
  const values = scripts.filter((script) => script.includes("reeTierUsage")).flatMap((script) => jsLiterals(script, "Amp"));
  const named = findObject(values, (o) => isObject(o.freeTierUsage));
  if (named) return named.freeTierUsage as JsonObject;
  const prefetchedKey = (o: JsonObject) => Object.keys(o).find((key) => key.includes("getFreeTierUsage") && isObject(o[key]));
  const prefetched = findObject(values, (o) => prefetchedKey(o) !== undefined);
  return prefetched ? (prefetched[prefetchedKey(prefetched)!] as JsonObject) : null;
}

/** The payload's figures, each a non-negative number (or numeric text); a missing one is named. */
function freeTier(payload: JsonObject): AmpFreeTier {
  const figure = (key: string, required: boolean): number | null => {
    const value = toNumber(payload[key]);
    if (value !== null && value >= 0) return value;
    if (!required && (payload[key] === undefined || payload[key] === null)) return null;
    throw changedPage(`freeTierUsage.${key} is ${payload[key] === undefined ? "missing" : "not a non-negative number"}.`);
  };
  return {
    quota: figure("quota", true)!,
    used: figure("used", true)!,
    hourlyReplenishment: figure("hourlyReplenishment", true)!,
    windowHours: figure("windowHours", false),
  };
}
