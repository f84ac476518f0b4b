import { Args } from "@oclif/core";
import type { CookieExplanation } from "../../adapters/browser/cookie-explanation.js";
import type { LookupNote } from "../../ports/browser-credentials.js";
import { EXIT, QuotabarCommand, UsageError } from "../base-command.js";
import { colorFlag, providerRef } from "../shared-flags.js";
import { style, type Style } from "../render/style.js";

export default class Cookies extends QuotabarCommand {
  static override summary =
    "Explain which browsers and profiles a provider's cookies are read from, and what was found (cookie names only).";
  static override description =
    "Looks at the browsers afresh (the cached cookie header is set aside and nothing is written): every browser the provider tries, in order, each profile, the cookie names found, and why a profile was chosen or skipped. No cookie value is ever printed. It may ask the OS once per browser for the key that decrypts its cookies (the Keychain on macOS, the Secret Service on Linux).";
  static override examples = ["<%= config.bin %> cookies ollama", "<%= config.bin %> cookies amp --json"];
  static override enableJsonFlag = true;
  static override args = {
    provider: Args.string({ description: "Provider id", required: true }),
  };
  static override flags = { color: colorFlag() };

  async run(): Promise<CookieExplanation> {
    const { args, flags } = await this.parse(Cookies);
    const id = providerRef(args.provider);
    // asked by a person: the OS may prompt once per browser for its cookie key
    const { createCliCore } = await import("../composition.js");
    const explanation = await createCliCore(flags, { interactive: true }).explainCookies(id);
    if (!explanation) throw new UsageError(`Unknown provider id: ${args.provider}`);
    if (!this.jsonEnabled()) for (const text of cookieExplanationText(explanation, style(this.color(flags.color)))) this.log(text);
    if (explanation.queries.length > 0 && !explanation.chosen) process.exitCode = EXIT.providerFailed; // nothing found
    return explanation;
  }
}

/** The explanation as lines for a terminal: what was asked for, one line per look, then the choice. */
export function cookieExplanationText(e: CookieExplanation, s: Style): string[] {
  if (e.queries.length === 0) return [`${e.name} reads no browser cookies.`, ...e.notes.map((note) => line(note, s))];
  const heads = e.queries.map((query) => {
    const names = query.names ? `; cookies ${query.names.join(", ")}` : "";
    return s.bold(`${e.name}: cookies for ${query.hosts.join(", ")}${names}; browsers in order: ${query.browsers.join(", ")}`);
  });
  const choice = e.chosen
    ? s.green(`Chosen: ${e.chosen.browser}${e.chosen.profile ? ` / ${e.chosen.profile}` : ""} (${(e.chosen.cookieNames ?? []).join(", ")})`)
    : s.yellow("No browser profile has the cookies wanted: sign in to the site in one of the browsers above, or paste a cookie header.");
  return [...heads, ...e.notes.map((note) => line(note, s)), choice];
}

const OUTCOME: Record<LookupNote["outcome"], (s: Style, text: string) => string> = {
  chosen: (s, t) => s.green(t),
  found: (s, t) => s.green(t),
  nothing: (s, t) => s.dim(t),
  "not-installed": (s, t) => s.dim(t),
  "no-profile": (s, t) => s.dim(t),
  skipped: (s, t) => s.yellow(t),
  error: (s, t) => s.red(t),
};

function line(note: LookupNote, s: Style): string {
  const where = `${note.browser}${note.profile ? ` / ${note.profile}` : ""}`;
  const names = note.cookieNames && note.cookieNames.length > 0 ? s.dim(` [${note.cookieNames.join(", ")}]`) : "";
  return `  ${where.padEnd(24)} ${OUTCOME[note.outcome](s, note.outcome.padEnd(13))} ${note.detail}${names}`;
}
