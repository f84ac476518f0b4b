import { ACCOUNT_LABEL_RULE, isAccountLabel, keyOfEntry, sameAccount } from "../../domain/account.js";
import type { QuotabarConfig } from "../../ports/config-store.js";

/**
 * The config file's fields and what each must be. Written out rather than in zod: a run that only
 * reads the config (`quotabar providers`, `config show`) then loads no zod, about 10 ms of its
 * start-up. test/core/config-schema.test.ts holds it to the zod schema it replaced.
 */

/** The largest timeoutSeconds; the CLI's --timeout has the same range, and setTimeout overflows far above it. */
export const MAX_TIMEOUT_SECONDS = 600;

/** The first problem of a config, in field order, depth first: keys and indexes from the top, and what the value must be. */
export interface ConfigIssue {
  path: (string | number)[];
  message: string;
  /** Another value the problem is about (the first of two entries for one account), to name its line too. */
  other?: (string | number)[];
}

/** Checks a value; the problem (its path relative to the value) or null. */
type Check = (value: unknown) => ConfigIssue | null;

const COOKIE_SOURCES = ["auto", "manual", "off"];
/** Or one browser profile: `chrome:Profile 2`, `firefox:work` (a browser id, a colon, the profile's name or folder). */
const COOKIE_PROFILE = /^[a-z][a-z0-9-]*:\P{Cc}{1,100}$/u;
const seconds = `a number of seconds from 1 to ${MAX_TIMEOUT_SECONDS}`;

/** Messages say what the value must be and never quote it (it may be a secret). */
const problem = (message: string, path: (string | number)[] = []): ConfigIssue => ({ path, message });
const mustBe = (what: string, value: unknown) => problem(value === undefined ? "is missing" : `must be ${what}`);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const text: Check = (v) => (typeof v === "string" ? null : mustBe("a string", v));
const flag: Check = (v) => (typeof v === "boolean" ? null : mustBe("true or false", v));
const number =
  (what: string, holds: (n: number) => boolean): Check =>
  (v) =>
    typeof v !== "number" ? mustBe(what, v) : holds(v) ? null : problem(`must be ${what}`);
const optional =
  (check: Check): Check =>
  (v) =>
    v === undefined ? null : check(v);
const arrayOf =
  (what: string, item: Check): Check =>
  (v) => {
    if (!Array.isArray(v)) return mustBe(what, v);
    for (const [i, element] of v.entries()) {
      const found = item(element);
      if (found) return problem(found.message, [i, ...found.path]);
    }
    return null;
  };
/** Known fields are checked in this order; unknown ones pass through untouched. */
const object =
  (what: string, fields: Record<string, Check>): Check =>
  (v) => {
    if (!isObject(v)) return mustBe(what, v);
    for (const [key, check] of Object.entries(fields)) {
      const found = check(v[key]);
      if (found) return problem(found.message, [key, ...found.path]);
    }
    return null;
  };

/** Which events `quotabar watch` tells; at the root, and in a provider's entry to override it. */
const notify = object("an object", {
  thresholds: optional(
    arrayOf(
      "an array of percents",
      number("a percent from 1 to 100", (n) => n >= 1 && n <= 100),
    ),
  ),
  runOut: optional(flag),
  incidents: optional(flag),
});

const providerEntry = object("an object (a provider entry)", {
  id: (v) => (typeof v !== "string" ? mustBe("a non-empty string", v) : v === "" ? problem("must be a non-empty string") : null),
  account: optional((v) => (isAccountLabel(v) ? null : mustBe(ACCOUNT_LABEL_RULE, v))),
  enabled: optional(flag),
  apiKey: optional(text),
  source: optional(text),
  region: optional(text),
  cookieSource: optional((v) =>
    COOKIE_SOURCES.includes(v as string) || (typeof v === "string" && COOKIE_PROFILE.test(v))
      ? null
      : mustBe(`one of ${COOKIE_SOURCES.map((s) => `"${s}"`).join(", ")}, or "<browser>:<profile>"`, v),
  ),
  cookieHeader: optional(text),
  workspaceID: optional(text),
  /** Where an account's vendor CLI keeps its sign-in (Claude Code, Codex, Gemini CLI): absolute or `~/...`. */
  claudeConfigDir: optional(text),
  codexHome: optional(text),
  geminiDir: optional(text),
  /** Replaces the provider's browser order: ids such as "chrome", "firefox", "safari". */
  browsers: optional(
    arrayOf("an array of browser ids (strings)", (v) => (typeof v === "string" ? null : mustBe("a browser id (a string)", v))),
  ),
  notify: optional(notify),
});

const config = object("a JSON object", {
  version: optional(number("a whole number", Number.isSafeInteger)),
  providers: optional(arrayOf("an array of provider entries", providerEntry)),
  status: optional(
    object("an object", {
      enabled: optional(flag),
      intervalMinutes: optional(number("a positive number of minutes", (n) => n > 0)),
    }),
  ),
  timeoutSeconds: optional(number(seconds, (n) => n >= 1 && n <= MAX_TIMEOUT_SECONDS)),
  /** false: no browser key is ever asked of the OS secret store (Raycast: "Read browser secrets"). */
  browserSecrets: optional(flag),
  notify: optional(notify),
});

/** A parsed config file as quotabar uses it (`providers` defaults to none), or its first problem. */
export function checkConfig(raw: unknown): { config: QuotabarConfig; issue?: undefined } | { issue: ConfigIssue } {
  const issue = config(raw) ?? repeatedAccount(raw as Record<string, unknown>);
  if (issue) return { issue };
  const found = raw as Record<string, unknown>;
  return { config: { ...found, providers: (found.providers as QuotabarConfig["providers"] | undefined) ?? [] } };
}

/** Two entries for one account (the same id, both without `account` or with the same one): the second, naming the first. */
function repeatedAccount(raw: Record<string, unknown>): ConfigIssue | null {
  const entries = (raw.providers as QuotabarConfig["providers"] | undefined) ?? [];
  const keys = entries.map(keyOfEntry);
  for (const [i, key] of keys.entries()) {
    const first = keys.findIndex((other) => sameAccount(other, key));
    if (first < i) {
      return { path: ["providers", i], message: `is a second entry for the account of providers[${first}]`, other: ["providers", first] };
    }
  }
  return null;
}
