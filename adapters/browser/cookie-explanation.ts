import { cleanStrings } from "../../domain/untrusted-text.js";
import type { BrowserAccess, CookieQuery, LookupNote } from "../../ports/browser-credentials.js";
import type { ProviderConfigEntry } from "../../ports/config-store.js";
import type { Environment } from "../../ports/environment.js";
import type { CredentialContext } from "../../ports/fetch-context.js";
import type { ProcessRunner } from "../../ports/process-runner.js";
import type { ProviderModule } from "../../ports/provider-module.js";

/** What `quotabar cookies <id>` shows: where a provider's browser cookies were looked for and what was found. Names only, never a value. */
export interface CookieExplanation {
  provider: string;
  name: string;
  /** Whether the OS could have been asked for a browser's key (a prompt) in this run. */
  interactive: boolean;
  /** What the provider asked the browsers for (none: it reads no browser cookies). */
  queries: CookieQuery[];
  notes: LookupNote[];
  /** The profile (or pasted header) the provider would use now; null when none. */
  chosen: LookupNote | null;
}

/** While explaining, no vendor CLI runs: only the browsers are looked at. */
const NO_PROCESSES: ProcessRunner = {
  run: async () => ({ exitCode: 127, stdout: "", stderr: "not run while explaining cookies", timedOut: false }),
  which: async () => null,
};

/**
 * Runs a provider's credential sources against the browsers with nothing else to find: no key, no
 * pasted header, no credential variable (only where files live: HOME, XDG dirs), no CLI. The kit's browser source sees `explain` and skips the
 * cache (writing none), so every note says what a fresh look at the browsers gives.
 */
export async function explainCookies(
  module: ProviderModule,
  entry: ProviderConfigEntry,
  access: BrowserAccess,
  env: Environment,
  now: () => Date,
): Promise<CookieExplanation> {
  const { descriptor } = module;
  const notes: LookupNote[] = [];
  const queries: CookieQuery[] = [];
  const pasted = typeof entry.cookieHeader === "string" && entry.cookieHeader.trim() !== "" && entry.cookieSource !== "off";
  if (pasted)
    notes.push({ browser: "config", outcome: "found", detail: "a pasted cookieHeader is in the config; it is used before any browser" });
  for (const name of descriptor.credentialEnv) {
    if (env[name]?.trim())
      notes.push({ browser: "environment", outcome: "found", detail: `${name} is set; it is used before any browser` });
  }
  const recording: BrowserAccess = {
    ...access,
    cookies: {
      read: async (query, options) => {
        queries.push(query);
        return access.cookies.read(query, options);
      },
    },
    explain: (note) => notes.push(note),
  };
  const bare: ProviderConfigEntry = { ...entry };
  delete bare.apiKey;
  delete bare.cookieHeader;
  // where things live (HOME, XDG dirs) but no credential variable: the explanation is about the browsers and files
  const places = Object.fromEntries(Object.entries(env).filter(([name]) => /^(HOME|XDG_[A-Z_]+|CHROME_CONFIG_HOME|PATH)$/.test(name)));
  const context: CredentialContext = { env: places, entry: bare, now, sourceMode: "auto", processes: NO_PROCESSES, browsers: recording };
  for (const strategy of module.strategies) {
    try {
      await strategy.credentials.resolve(context);
    } catch (error) {
      notes.push({ browser: strategy.source, outcome: "error", detail: `looking for a credential failed: ${(error as Error).message}` });
    }
  }
  const chosen = notes.find((n) => n.outcome === "chosen") ?? null;
  // profile names and error text come from files anyone could have written: no controls, no token shapes
  return cleanStrings({ provider: descriptor.id, name: descriptor.name, interactive: access.interactive, queries, notes, chosen }, []);
}
