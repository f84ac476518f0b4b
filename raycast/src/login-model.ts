import { QuotabarError } from "../../domain/errors.js";
import { formatCountdown } from "../../domain/time.js";

/** The Copilot device-flow login as the view shows it (spec 3.1: signed out → code issued → polling → signed in | expired). */
export type LoginState =
  | { step: "requesting" }
  | { step: "waiting"; userCode: string; verificationUri: string; expiresAt: string }
  | { step: "signed-in"; savedTo: string }
  | { step: "expired" }
  | { step: "denied" }
  | { step: "failed"; message: string; hint: string | null };

/** What a failed start or poll means for the view. Aborts (the view closed) are not shown at all. */
export function loginStateFromError(error: unknown): LoginState | null {
  if (error instanceof Error && error.name === "AbortError") return null;
  if (error instanceof QuotabarError) {
    if (error.code === "expired") return { step: "expired" };
    if (error.code === "unauthorized" || error.code === "forbidden") return { step: "denied" };
    return { step: "failed", message: error.message, hint: error.hint };
  }
  return { step: "failed", message: error instanceof Error ? error.message : String(error), hint: null };
}

export function loginMarkdown(state: LoginState, now: Date): string {
  switch (state.step) {
    case "requesting":
      return "# Sign In to GitHub Copilot\n\nAsking GitHub for a device code…";
    case "waiting":
      return [
        "# Sign In to GitHub Copilot",
        "Enter this code on GitHub:",
        `# \`${state.userCode}\``,
        `Press ⏎ to copy the code and open **${state.verificationUri}**, then paste the code there and authorize.`,
        `Waiting for you to authorize… The code expires in ${formatCountdown(state.expiresAt, now)}.`,
      ].join("\n\n");
    case "signed-in":
      return `# Signed In ✅\n\nYour GitHub Copilot token was saved to ${state.savedTo}. The menu bar and the usage list use it from now on.`;
    case "expired":
      return "# Code Expired\n\nThe code was not authorized in time (usually 15 minutes). Press ⏎ to start again with a new code.";
    case "denied":
      return "# Access Denied\n\nGitHub says the authorization was denied. Press ⏎ to start again, or paste a personal access token with the `read:user` scope in Preferences.";
    case "failed":
      return `# Sign-In Failed\n\n${state.message}${state.hint ? `\n\n${state.hint}` : ""}\n\nPress ⏎ to try again.`;
  }
}
