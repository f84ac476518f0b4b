import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkConfig, MAX_TIMEOUT_SECONDS } from "../../adapters/config/config-schema.js";

/**
 * The config check was a zod schema until zod's load time (~10 ms) was found to be most of what a
 * config file added to `quotabar providers`. That schema, kept here word for word, is the oracle:
 * for any JSON value, the written-out check accepts the same configs (with the same values) and
 * reports the same first problem (path and message).
 */
const must = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? "is missing" : `must be ${what}`),
});
const text = must("a string");
const flag = must("true or false");
const seconds = `a number of seconds from 1 to ${MAX_TIMEOUT_SECONDS}`;
const COOKIE_SOURCES = ["auto", "manual", "off"] as const;
const cookieSource = `one of ${COOKIE_SOURCES.map((s) => `"${s}"`).join(", ")}, or "<browser>:<profile>"`;
const COOKIE_PROFILE = /^[a-z][a-z0-9-]*:\P{Cc}{1,100}$/u;
const label = "a label of 1 to 32 letters, digits, -, _ or .";
const percent = "a percent from 1 to 100";
const NotifySchema = z.looseObject(
  {
    thresholds: z
      .array(z.number(must(percent)).min(1, `must be ${percent}`).max(100, `must be ${percent}`), must("an array of percents"))
      .optional(),
    runOut: z.boolean(flag).optional(),
    incidents: z.boolean(flag).optional(),
  },
  must("an object"),
);
const ProviderEntrySchema = z.looseObject(
  {
    id: z.string(must("a non-empty string")).min(1, "must be a non-empty string"),
    account: z
      .string(must(label))
      .regex(/^[A-Za-z0-9._-]{1,32}$/, `must be ${label}`)
      .optional(),
    enabled: z.boolean(flag).optional(),
    apiKey: z.string(text).optional(),
    source: z.string(text).optional(),
    region: z.string(text).optional(),
    cookieSource: z
      .string(must(cookieSource))
      .refine((v) => (COOKIE_SOURCES as readonly string[]).includes(v) || COOKIE_PROFILE.test(v), `must be ${cookieSource}`)
      .optional(),
    cookieHeader: z.string(text).optional(),
    workspaceID: z.string(text).optional(),
    claudeConfigDir: z.string(text).optional(),
    codexHome: z.string(text).optional(),
    geminiDir: z.string(text).optional(),
    browsers: z.array(z.string(must("a browser id (a string)")), must("an array of browser ids (strings)")).optional(),
    notify: NotifySchema.optional(),
  },
  must("an object (a provider entry)"),
);
const ConfigSchema = z.looseObject(
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
    browserSecrets: z.boolean(flag).optional(),
    notify: NotifySchema.optional(),
  },
  must("a JSON object"),
);

const number = fc.oneof(fc.integer({ min: -5, max: 1_000 }), fc.double({ min: -10, max: 1_000, noNaN: true }), fc.constant(2 ** 60));
const scalar = fc.oneof(fc.string({ maxLength: 6 }), fc.boolean(), number, fc.constant(null));
const anything = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 4 }), scalar, { maxKeys: 2 }));
/** Mostly the right type, sometimes anything: both sides of every check get exercised. */
const field = <T>(good: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: good }, { weight: 1, arbitrary: anything });
const notify = fc.record(
  {
    thresholds: field(
      fc.array(fc.oneof({ weight: 4, arbitrary: fc.integer({ min: -5, max: 120 }) }, { weight: 1, arbitrary: scalar }), { maxLength: 3 }),
    ),
    runOut: field(fc.boolean()),
    incidents: field(fc.boolean()),
    other: anything,
  },
  { requiredKeys: [] },
);
const entry = fc.record(
  {
    id: field(fc.string({ maxLength: 6 })),
    account: field(fc.constantFrom("work", "me.2", "a b", "x".repeat(33), "<b>", "")),
    enabled: field(fc.boolean()),
    apiKey: field(fc.string({ maxLength: 6 })),
    source: field(fc.constantFrom("auto", "api", "web")),
    region: field(fc.string({ maxLength: 6 })),
    cookieSource: field(fc.constantFrom("auto", "manual", "off", "AUTO", "", "chrome:Profile 2", "firefox:", "chrome:a\u0007")),
    cookieHeader: field(fc.string({ maxLength: 6 })),
    workspaceID: field(fc.string({ maxLength: 6 })),
    codexHome: field(fc.constantFrom("~/.codex-work", "/home/me/.codex")),
    browsers: field(
      fc.array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom("chrome", "firefox") }, { weight: 1, arbitrary: scalar }), {
        maxLength: 3,
      }),
    ),
    notify: field(notify),
    extra: anything,
  },
  { requiredKeys: [] },
);
const config = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.record(
      {
        version: field(fc.constantFrom(1, 2)),
        providers: field(fc.array(fc.oneof({ weight: 6, arbitrary: entry }, { weight: 1, arbitrary: anything }), { maxLength: 3 })),
        status: field(fc.record({ enabled: field(fc.boolean()), intervalMinutes: field(number), other: anything }, { requiredKeys: [] })),
        timeoutSeconds: field(number),
        browserSecrets: field(fc.boolean()),
        notify: field(notify),
        other: anything,
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: anything },
);

/** Two entries with the same id and account (a rule zod's schema had no word for). */
function repeatsAnAccount(raw: unknown): boolean {
  const providers = (raw as { providers?: unknown } | null)?.providers;
  if (!Array.isArray(providers)) return false;
  const keys = providers
    .filter((e): e is { id: unknown; account?: unknown } => typeof e === "object" && e !== null && typeof e.id === "string")
    .map((e) => JSON.stringify([e.id, typeof e.account === "string" ? e.account : null]));
  return new Set(keys).size < keys.length;
}

describe("the config check", () => {
  it("agrees with the zod schema it replaced on every JSON value: what passes, its value, the first problem", () => {
    fc.assert(
      fc.property(config, (generated) => {
        const raw: unknown = JSON.parse(JSON.stringify(generated)); // what a file can hold
        fc.pre(!repeatsAnAccount(raw)); // a rule across entries, pinned below
        const expected = ConfigSchema.safeParse(raw);
        const checked = checkConfig(raw);
        if (expected.success) {
          expect(checked.issue).toBeUndefined();
          expect(checked.issue ? null : checked.config).toEqual(expected.data);
        } else {
          const first = expected.error.issues[0]!;
          expect(checked.issue).toEqual({ path: first.path, message: first.message });
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it("keeps unknown fields and the file's field order, and defaults providers to none", () => {
    const checked = checkConfig({ theme: "dark", timeoutSeconds: 30, providers: [{ note: "mine", id: "zai" }] });
    expect(checked.issue).toBeUndefined();
    expect(JSON.stringify(checked.issue ? null : checked.config)).toBe(
      '{"theme":"dark","timeoutSeconds":30,"providers":[{"note":"mine","id":"zai"}]}',
    );
    expect(checkConfig({}).issue ? null : checkConfig({})).toEqual({ config: { providers: [] } });
  });

  it("refuses a second entry for one account, pointing at it and at the first", () => {
    const again = checkConfig({
      providers: [{ id: "openrouter", account: "work" }, { id: "openrouter" }, { id: "openrouter", account: "work" }],
    });
    expect(again.issue).toEqual({
      path: ["providers", 2],
      message: "is a second entry for the account of providers[0]",
      other: ["providers", 0],
    });
    const defaults = checkConfig({ providers: [{ id: "zai" }, { id: "zai", apiKey: "k" }] });
    expect(defaults.issue).toEqual({
      path: ["providers", 1],
      message: "is a second entry for the account of providers[0]",
      other: ["providers", 0],
    });
    // the same label on two providers is two accounts
    expect(
      checkConfig({
        providers: [
          { id: "zai", account: "work" },
          { id: "warp", account: "work" },
        ],
      }).issue,
    ).toBeUndefined();
  });
});
