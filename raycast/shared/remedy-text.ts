import type { ProviderDescriptor, ProviderSetting } from "../../domain/descriptor.js";
import { plainRemedyText, type Remedy, type RemedyWriter } from "../../domain/remedy.js";
import { PROVIDER_CATALOG } from "../../providers/registry.js";

/** The title of the non-provider preference that points the extension at the CLI's config file. */
export const SHARED_CONFIG_PREFERENCE = "Shared CLI Config File";

export interface RaycastRemedyOptions {
  /** A shared CLI config file is set: advice about config fields without a preference can name it. */
  sharedConfigFile: boolean;
}

const settingOf = (descriptor: ProviderDescriptor | undefined, field: string): ProviderSetting | undefined =>
  descriptor?.settings?.find((s) => s.field === field);

/**
 * Remedies in Raycast's words: the extension preferences a descriptor declares (by their titles),
 * the sign-in command for a provider that has one, and the shared CLI config file for what has no
 * preference. Environment variables are never named: Raycast does not pass a shell's environment.
 * Null when a remedy has nothing true to say in Raycast.
 */
export function raycastRemedyText(remedy: Remedy, options: RaycastRemedyOptions = { sharedConfigFile: false }): string | null {
  const provider = "provider" in remedy ? remedy.provider : "";
  const descriptor = PROVIDER_CATALOG.descriptor(provider);
  const inConfigFile = (field: string, example?: string) => {
    const path = `providers[${provider}].${field}${example ? ` (e.g. ${example})` : ""}`;
    return options.sharedConfigFile
      ? `Set ${path} in the shared CLI config file.`
      : `Set ${path} in the quotabar CLI's config file and choose it as ${SHARED_CONFIG_PREFERENCE} in the extension preferences.`;
  };
  switch (remedy.kind) {
    case "set-key": {
      const setting = settingOf(descriptor, "apiKey");
      return setting ? `Add your ${setting.title} in the extension preferences.` : inConfigFile("apiKey");
    }
    case "set-cookie": {
      const setting = settingOf(descriptor, "cookieHeader");
      const from = remedy.from ? ` from ${remedy.from}` : "";
      return setting ? `Paste a Cookie header${from} into ${setting.title} in the extension preferences.` : inConfigFile("cookieHeader");
    }
    case "set-config": {
      const setting = settingOf(descriptor, remedy.field);
      if (!setting) return inConfigFile(remedy.field, remedy.example);
      const option = setting.field === "region" ? setting.options.find((o) => o.value === remedy.example) : undefined;
      return `Choose the right ${setting.title} in the extension preferences${option ? ` (e.g. ${option.title})` : ""}.`;
    }
    case "login":
      return descriptor?.signIn ? `Run “${descriptor.signIn.title}”.` : null;
    case "browser-sign-in":
    case "install":
    case "advice":
      return plainRemedyText(remedy);
    case "retry":
      return remedy.afterSeconds !== undefined
        ? `Try again in ${remedy.afterSeconds} s.`
        : `Try again later${remedy.url ? ` (${remedy.url})` : ""}.`;
    case "raise-timeout":
      // Raycast has no timeout preference; the shared file's timeoutSeconds applies when there is one
      return options.sharedConfigFile ? "Raise timeoutSeconds in the shared CLI config file." : null;
  }
}

/** The Raycast RemedyWriter: every remedy that has something to say in Raycast, in order, as one line. */
export function raycastRemedyWriter(options: RaycastRemedyOptions = { sharedConfigFile: false }): RemedyWriter {
  return (remedies) => {
    const texts = remedies.map((r) => raycastRemedyText(r, options)).filter((t): t is string => t !== null);
    return texts.length === 0 ? null : [...new Set(texts)].join(" ");
  };
}
