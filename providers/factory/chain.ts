import type { SourceKind } from "../../domain/descriptor.js";
import type { LookupNote } from "../../ports/browser-credentials.js";
import type { ProviderConfigEntry } from "../../ports/config-store.js";
import {
  cookieSourceOf,
  hostOs,
  notConfigured,
  type CredentialContext,
  type FetchContext,
  type FetchStrategy,
  type QuotabarError,
} from "../kit/index.js";
import type { FactoryAnswer } from "./api.js";
import { PASTE_COOKIE, SIGN_IN } from "./errors.js";
import { factorySnapshot, type FactoryReading } from "./policy.js";

/** What a step found: its credential, or why it has none (for `quotabar cookies factory`). */
export type Found<Credential> =
  | { credential: Credential; detail: string; names?: string[] }
  | { credential: null; outcome: Exclude<LookupNote["outcome"], "chosen" | "found">; detail: string; names?: string[] };

/** One step of the spec's credential chain: where it looks (locally), and how it reads usage with what it found. */
export interface Step<Credential> {
  /** Its place in the spec's order (1..9); 0 for the pasted header that comes before the chain. */
  number: number;
  /** What it uses, in words ("stored bearer token"). */
  title: string;
  source: SourceKind;
  find(context: CredentialContext): Promise<Found<Credential>>;
  /** Usage with the credential, and which browser profile or origin it came from when there were several. */
  read(credential: Credential, context: FetchContext): Promise<{ answer: FactoryAnswer; from?: string }>;
}

/** The explanation run whose first step with a credential has been named (the one a fetch tries first). */
const chosenIn = new WeakSet<ProviderConfigEntry>();

/** The platform's browsers, for "log in ... in <browsers>". */
const browserWords = () => (hostOs().platform === "darwin" ? "Safari, Chrome or Firefox" : "Chrome, Chromium or Firefox");

/** No step found anything: what the spec's chain tells the user, or why the chain did not run. */
export function missingSession(context: CredentialContext): QuotabarError {
  const mode = cookieSourceOf(context.entry);
  if (mode === "manual") return notConfigured("Factory's cookie source is manual, but no cookie header is set.", PASTE_COOKIE);
  if (mode === "off")
    return notConfigured("Factory's cookie source is off.", {
      kind: "set-config",
      provider: "factory",
      field: "cookieSource",
      example: "auto",
    });
  return notConfigured(`No Factory session found. Please log in to app.factory.ai in ${browserWords()}.`, SIGN_IN, PASTE_COOKIE);
}

/**
 * A step as a fetch strategy. Its credential source tells `explain` what it found or why not; the
 * chain runs only with `cookieSource` auto. Every failure but a spent budget hands over to the next
 * step, so the first step that yields usage answers and otherwise the last failure is shown.
 */
export function chainStrategy<Credential>(step: Step<Credential>): FetchStrategy<Credential, FactoryReading> {
  const where = `step ${step.number}`;
  return {
    source: step.source,
    appliesTo: (mode) => mode === "auto" || mode === "web" || mode === step.source,
    fallbackOn: (error) => error.code !== "timeout",
    missingCredential: missingSession,
    toSnapshot: factorySnapshot,
    credentials: {
      async resolve(context) {
        const explain = context.browsers.explain?.bind(context.browsers);
        const mode = cookieSourceOf(context.entry);
        if (step.number > 0 && mode !== "auto") {
          if (step.number === 1)
            explain?.({ browser: where, outcome: "skipped", detail: `cookieSource is "${mode}": steps 1 to 9 are not tried` });
          return null;
        }
        let found: Found<Credential>;
        try {
          found = await step.find(context);
        } catch (error) {
          found = { credential: null, outcome: "error", detail: `looking failed: ${(error as Error).message}` };
        }
        if (explain && step.number > 0) {
          // the first step with a credential is the one a fetch would try first
          let outcome: LookupNote["outcome"] = "found";
          let then = " (tried when the steps before it give no usage)";
          if ("outcome" in found) [outcome, then] = [found.outcome, ""];
          else if (!chosenIn.has(context.entry)) [outcome, then] = ["chosen", ""];
          if (outcome === "chosen") chosenIn.add(context.entry);
          explain({
            browser: where,
            outcome,
            detail: `${step.title}: ${found.detail}${then}`,
            ...(found.names ? { cookieNames: found.names } : {}),
          });
        }
        return found.credential;
      },
    },
    async fetch(credential, context) {
      const { answer, from } = await step.read(credential, context);
      const credentialWords = step.number === 0 ? step.title : `Step ${step.number}: ${step.title}`;
      return { ...answer, credential: from ? `${credentialWords} (${from})` : credentialWords };
    },
  };
}
