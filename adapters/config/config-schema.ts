import { z } from "zod";

/** The largest timeoutSeconds; the CLI's --timeout has the same range, and setTimeout overflows far above it. */
export const MAX_TIMEOUT_SECONDS = 600;

/** Messages say what the value must be and never quote it (it may be a secret). */
const must = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? "is missing" : `must be ${what}`),
});
const text = must("a string");
const flag = must("true or false");
const seconds = `a number of seconds from 1 to ${MAX_TIMEOUT_SECONDS}`;
const COOKIE_SOURCES = ["auto", "manual", "off"] as const;
const cookieSource = `one of ${COOKIE_SOURCES.map((s) => `"${s}"`).join(", ")}`;
const browserIds = "an array of browser ids (strings)";

/** Known fields are checked; unknown ones pass through untouched at every level. */
export const ProviderEntrySchema = z.looseObject(
  {
    id: z.string(must("a non-empty string")).min(1, "must be a non-empty string"),
    enabled: z.boolean(flag).optional(),
    apiKey: z.string(text).optional(),
    source: z.string(text).optional(),
    region: z.string(text).optional(),
    cookieSource: z.enum(COOKIE_SOURCES, must(cookieSource)).optional(),
    cookieHeader: z.string(text).optional(),
    workspaceID: z.string(text).optional(),
    /** Replaces the provider's browser order: ids such as "chrome", "firefox", "safari". */
    browsers: z.array(z.string(must("a browser id (a string)")), must(browserIds)).optional(),
  },
  must("an object (a provider entry)"),
);

export const ConfigSchema = z.looseObject(
  {
    version: z.number(must("a whole number")).int(must("a whole number")).optional(),
    providers: z.array(ProviderEntrySchema, must("an array of provider entries")).default([]),
    status: z
      .looseObject(
        {
          enabled: z.boolean(flag).optional(),
          intervalMinutes: z.number(must("a positive number of minutes")).positive("must be a positive number of minutes").optional(),
        },
        must("an object"),
      )
      .optional(),
    timeoutSeconds: z.number(must(seconds)).min(1, `must be ${seconds}`).max(MAX_TIMEOUT_SECONDS, `must be ${seconds}`).optional(),
    /** false: no browser key is ever asked of the OS secret store (Raycast: "Read browser secrets"). */
    browserSecrets: z.boolean(flag).optional(),
  },
  must("a JSON object"),
);
