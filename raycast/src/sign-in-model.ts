import { QuotabarError } from "../../domain/errors.js";
import { formatCountdown } from "../../presentation/format.js";
import { raycastRemedyWriter } from "../shared/remedy-text.js";

/** A provider's device-flow sign-in as the view shows it: signed out → code issued → polling → signed in | expired | denied. */
export type LoginState =
  | { step: "requesting" }
  | { step: "waiting"; userCode: string; verificationUri: string; expiresAt: string }
  | { step: "signed-in"; savedTo: string }
  | { step: "expired" }
  | { step: "denied" }
  | { step: "failed"; message: string; hint: string | null };

/** The words of one provider's sign-in, from its descriptor. */
export interface SignInTexts {
  /** descriptor.signIn.title: "Sign in to GitHub Copilot" */
  title: string;
  /** descriptor.name */
  name: string;
  /** The other way in, when the provider takes a key: "Add your … in the extension preferences." */
  alternative: string | null;
}

const writeRemedies = raycastRemedyWriter();

/** What a failed start or poll means for the view. Aborts (the view closed) are not shown at all. */
export function loginStateFromError(error: unknown): LoginState | null {
  if (error instanceof Error && error.name === "AbortError") return null;
  if (error instanceof QuotabarError) {
    if (error.code === "expired") return { step: "expired" };
    if (error.code === "unauthorized" || error.code === "forbidden") return { step: "denied" };
    return { step: "failed", message: error.message, hint: writeRemedies(error.remedies) };
  }
  return { step: "failed", message: error instanceof Error ? error.message : String(error), hint: null };
}

export function loginMarkdown(state: LoginState, now: Date, texts: SignInTexts): string {
  const alternative = texts.alternative ? ` ${texts.alternative}` : "";
  switch (state.step) {
    case "requesting":
      return `# ${texts.title}\n\nAsking for a device code…`;
    case "waiting":
      return [
        `# ${texts.title}`,
        "Enter this code on the verification page:",
        `# \`${state.userCode}\``,
        `Press ⏎ to copy the code and open **${state.verificationUri}**, then paste the code there and authorize.`,
        `Waiting for you to authorize… The code expires in ${formatCountdown(state.expiresAt, now)}.`,
      ].join("\n\n");
    case "signed-in":
      return `# Signed In ✅\n\nYour ${texts.name} token was saved to ${state.savedTo}. The menu bar and the usage list use it from now on.`;
    case "expired":
      return "# Code Expired\n\nThe code was not authorized in time (usually 15 minutes). Press ⏎ to start again with a new code.";
    case "denied":
      return `# Access Denied\n\nThe authorization was denied. Press ⏎ to start again.${alternative}`;
    case "failed":
      return `# Sign-In Failed\n\n${state.message}${state.hint ? `\n\n${state.hint}` : ""}\n\nPress ⏎ to try again.`;
  }
}
