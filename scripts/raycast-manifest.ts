/**
 * The parts of the Raycast manifest (raycast/package.json) that come from the provider registry:
 * the per-provider preferences (from each descriptor's `settings`, named as raycast/shared/
 * preferences.ts names them), the menu-bar command's provider dropdown, and the titles of the
 * sign-in commands (`<id>-login`, from `descriptor.signIn`). Everything else is kept as it is.
 * Pure: `npm run manifest` writes the result, raycast/test/manifest.test.ts fails when it is stale.
 */
import { DESCRIPTORS, PROVIDER_IDS } from "../providers/registry.js";
import { PROVIDER_PREFERENCES, type ProviderPreference } from "../raycast/shared/preferences.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface Preference extends JsonObject {
  name: string;
}
interface Command extends JsonObject {
  name: string;
}
export interface RaycastManifest extends JsonObject {
  commands: Command[];
  preferences: Preference[];
}

/** The command whose dropdown picks the menu-bar title's provider, and that preference. */
export const MENU_BAR_COMMAND = "menu-bar";
export const MENU_BAR_PROVIDER_PREFERENCE = "menuBarProvider";

/** A preference named after a provider (`<id>ApiKey`, but also a retired `<id>Token`) belongs to the generator. */
export function isProviderPreference(name: string): boolean {
  return PROVIDER_IDS.some((id) => name.startsWith(id) && /^[A-Z]/.test(name.slice(id.length)));
}

/** One descriptor setting as a manifest preference: a password field for keys and cookies, a dropdown for regions. */
export function manifestPreference({ name, setting }: ProviderPreference): Preference {
  const common = { name, title: setting.title, description: setting.description };
  if (setting.field === "region") {
    return {
      ...common,
      type: "dropdown",
      required: false,
      default: setting.default,
      data: setting.options.map((o) => ({ title: o.title, value: o.value })),
    };
  }
  return { ...common, type: "password", required: false, ...(setting.placeholder ? { placeholder: setting.placeholder } : {}) };
}

/** The manifest with its registry-owned parts regenerated; throws when a sign-in has no command to run it. */
export function generateManifest(manifest: RaycastManifest): RaycastManifest {
  const others = manifest.preferences.filter((p) => !isProviderPreference(p.name));
  const commands = manifest.commands.map((command) => {
    const signIn = DESCRIPTORS.find((d) => d.signIn && command.name === `${d.id}-login`)?.signIn;
    const withTitle: Command = signIn ? { ...command, title: signIn.title } : command;
    return command.name === MENU_BAR_COMMAND ? withProviderDropdown(withTitle) : withTitle;
  });
  for (const descriptor of DESCRIPTORS) {
    if (descriptor.signIn && !commands.some((c) => c.name === `${descriptor.id}-login`)) {
      throw new Error(
        `raycast/package.json needs a "${descriptor.id}-login" command (and raycast/src/${descriptor.id}-login.tsx) for "${descriptor.signIn.title}"`,
      );
    }
  }
  return { ...manifest, commands, preferences: [...PROVIDER_PREFERENCES.map(manifestPreference), ...others] };
}

function withProviderDropdown(command: Command): Command {
  const preferences = (command.preferences ?? []) as Preference[];
  return {
    ...command,
    preferences: preferences.map((preference) => {
      if (preference.name !== MENU_BAR_PROVIDER_PREFERENCE) return preference;
      const data = (preference.data ?? []) as { title: string; value: string }[];
      const choices = data.filter((choice) => !PROVIDER_IDS.includes(choice.value));
      return { ...preference, data: [...choices, ...DESCRIPTORS.map((d) => ({ title: d.name, value: d.id }))] };
    }),
  };
}

/** raycast/package.json's text: regenerated, two-space JSON with a final newline (what prettier keeps). */
export function renderManifest(text: string): string {
  return `${JSON.stringify(generateManifest(JSON.parse(text) as RaycastManifest), null, 2)}\n`;
}
