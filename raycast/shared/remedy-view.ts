/**
 * What the views say about an error or a provider that is not set up, and what clicking it does.
 * Decided from data only: the error's code, the descriptor's sign-in and settings, and the hint the
 * core wrote with Raycast's remedy writer. Pure and free of `@raycast/*`.
 */
import type { ProviderDescriptor } from "../../domain/descriptor.js";
import type { Remedy } from "../../domain/remedy.js";
import type { ProviderUsage } from "../../domain/usage-document.js";
import { shorten } from "../../presentation/format.js";
import { PROVIDER_CATALOG } from "../../providers/registry.js";
import { credentialPreferenceOf } from "./preferences.js";
import { raycastRemedyText } from "./remedy-text.js";

/** What a click does; the components turn it into `open`, `openExtensionPreferences`, `launchCommand`. */
export type ItemAction =
  | { type: "open"; url: string }
  | { type: "configure" }
  | { type: "sign-in"; provider: string }
  | { type: "refresh-session"; provider: string };

/** Error codes whose fix is to set the credential up (again). */
const NEEDS_CREDENTIAL: readonly string[] = ["not_configured", "unauthorized", "forbidden", "expired"];

/** How Raycast sets a provider up: its sign-in command when it has one, then its first credential preference. */
export function setupRemedies(descriptor: ProviderDescriptor): Remedy[] {
  const remedies: Remedy[] = [];
  if (descriptor.signIn) remedies.push({ kind: "login", provider: descriptor.id });
  const credential = credentialPreferenceOf(descriptor.id);
  if (credential?.setting.field === "apiKey") remedies.push({ kind: "set-key", provider: descriptor.id, env: [] });
  else if (credential) remedies.push({ kind: "set-cookie", provider: descriptor.id, env: [] });
  return remedies;
}

/** "Run “Sign In to …”, or add your … in the extension preferences."; what is found without a preference otherwise. */
export function setupHint(descriptor: ProviderDescriptor): string {
  const texts = setupRemedies(descriptor)
    .map((remedy) => raycastRemedyText(remedy))
    .filter((text): text is string => text !== null)
    .map((text, i) => (i === 0 ? text : text.charAt(0).toLowerCase() + text.slice(1)).replace(/\.$/, ""));
  return texts.length > 0 ? `${texts.join(", or ")}.` : `Found automatically: ${descriptor.auth.join("; ")}.`;
}

/** The hint worth showing: the core's (already in Raycast's words), else how to set up a provider that is not configured. */
export function hintFor(usage: ProviderUsage): string | null {
  if (usage.error === null) return null;
  if (usage.error.hint !== null) return usage.error.hint;
  const descriptor = PROVIDER_CATALOG.descriptor(usage.id);
  return usage.error.code === "not_configured" && descriptor ? setupHint(descriptor) : null;
}

/** The menu line that says what to do about an error, and what clicking it does. */
export function remedyOf(usage: ProviderUsage): { title: string; tooltip?: string; action?: ItemAction } | null {
  if (usage.error === null) return null;
  const hint = hintFor(usage);
  const tooltip = hint ? { tooltip: hint } : {};
  const descriptor = PROVIDER_CATALOG.descriptor(usage.id);
  if (descriptor && NEEDS_CREDENTIAL.includes(usage.error.code)) {
    const first = usage.error.code === "not_configured";
    if (descriptor.signIn) {
      return {
        title: `${descriptor.signIn.title}${first ? "" : " Again"}…`,
        ...tooltip,
        action: { type: "sign-in", provider: descriptor.id },
      };
    }
    const preference = credentialPreferenceOf(descriptor.id);
    if (preference) {
      return {
        title: `${first ? "Add" : "Update"} Your ${preference.setting.title} in Preferences…`,
        ...tooltip,
        action: { type: "configure" },
      };
    }
  }
  return hint ? { title: shorten(hint, 64), ...tooltip } : null;
}

/** The providers that have a sign-in flow, for the "set something up" entries of the empty views. */
export function signInProviders(): { provider: string; title: string }[] {
  return PROVIDER_CATALOG.descriptors().flatMap((descriptor) =>
    descriptor.signIn ? [{ provider: descriptor.id, title: descriptor.signIn.title }] : [],
  );
}
