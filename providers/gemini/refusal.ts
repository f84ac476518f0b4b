import { advice, QuotabarError } from "../kit/index.js";

/**
 * Google stopped serving Gemini CLI sign-ins of individual, Google AI Pro and Ultra accounts in
 * June 2026 (Workspace, education and Code Assist Standard/Enterprise accounts go on). Its answer,
 * from the token endpoint, loadCodeAssist or the quota call, is recognised by the words the
 * reference lists (CodexBar's `isConsumerTierDeprecationSignal`), in any letter case.
 */
export function isConsumerRefusal(body: string): boolean {
  const text = body.toLowerCase();
  return (
    text.includes("unsupported_client") ||
    text.includes("ineligibletiererror") ||
    (text.includes("no longer supported") && text.includes("gemini code assist")) ||
    (text.includes("migrate") && text.includes("antigravity") && text.includes("gemini"))
  );
}

export function consumerRefused(status: number): QuotabarError {
  return new QuotabarError(
    "forbidden",
    "Google no longer lets the Gemini CLI sign in with individual, Google AI Pro or Ultra accounts (since June 2026): this account has no Gemini CLI quota to show.",
    {
      status,
      remedies: [
        advice(
          "Use the Antigravity provider instead: open Antigravity (or run `agy`), sign in with this account, and run `quotabar -p antigravity`.",
        ),
      ],
    },
  );
}
