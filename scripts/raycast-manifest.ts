/**
 * The parts of the Raycast manifest (raycast/package.json) that come from the provider registry:
 * the per-provider preferences (from each descriptor's `settings`, named as raycast/shared/
 * preferences.ts names them), the menu-bar command's provider dropdown, and the titles of the
 * sign-in commands (`<id>-login`, from `descriptor.signIn`), the list command's Show Coming Soon
 * checkbox, and the "Read browser secrets" checkbox (config `browserSecrets`). What this version
 * cannot read yet (a provider without sources) is said so: its preferences are marked coming soon
 * and it is not offered in the dropdown. Everything else is kept.
 * Pure: `npm run manifest` writes the result, raycast/test/manifest.test.ts fails when it is stale.
 */
import { DESCRIPTORS, PROVIDER_IDS } from "../providers/registry.js";
import { canRead, SHOW_COMING_SOON } from "../raycast/shared/coming-soon.js";
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

/** Whether this version reads a provider; the registry's answer unless a test asks about another registry state. */
type CanRead = (id: string) => boolean;

const descriptorName = (id: string) => DESCRIPTORS.find((d) => d.id === id)?.name ?? id;

/**
 * One descriptor setting as a manifest preference: a password field for keys and cookies, a dropdown
 * for regions; the setting of a provider this version cannot read yet says so first.
 */
export function manifestPreference({ name, provider, setting }: ProviderPreference, readable: CanRead = canRead): Preference {
  const soon = readable(provider) ? "" : `Coming soon: this version of Quotabar cannot read ${descriptorName(provider)} yet. `;
  const common = { name, title: setting.title, description: `${soon}${setting.description}` };
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

/** The command whose list has the Coming Soon section. */
export const LIST_COMMAND = "show-usage";

/** The list command's checkbox that shows the providers still to come, naming them. */
export function comingSoonPreference(names: readonly string[]): Preference {
  return {
    name: SHOW_COMING_SOON,
    title: "Coming Soon",
    label: "Show providers Quotabar cannot read yet",
    description: `Lists the providers whose support is still to come (${names.join(", ")}) in a Coming Soon section, apart from the ones you can set up.`,
    type: "checkbox",
    required: false,
    default: false,
  };
}

/** The extension preference that stands for the config root's `browserSecrets` (raycast/shared/preferences.ts lays it over). */
export const BROWSER_SECRETS_PREFERENCE = "browserSecrets";

/** "Read browser secrets": on by default; off, no browser key is ever asked of the Keychain. */
export function browserSecretsPreference(): Preference {
  return {
    name: BROWSER_SECRETS_PREFERENCE,
    title: "Browser Secrets",
    label: "Read browser secrets",
    description:
      "Lets Quotabar ask the Keychain for a browser's cookie key (at most once per browser, only in a command you opened, never in a background refresh) to read the cookies of a browser you are signed in with. Off: Safari and Firefox are still read; Chrome and other Chromium browsers are not.",
    type: "checkbox",
    required: false,
    default: true,
  };
}

/**
 * The manifest with its registry-owned parts regenerated; throws when a sign-in has no command to
 * run it. `options.canRead` stands in for the registry's sources (tests).
 */
export function generateManifest(manifest: RaycastManifest, options: { canRead?: CanRead } = {}): RaycastManifest {
  const readable = options.canRead ?? canRead;
  const others = manifest.preferences.filter((p) => !isProviderPreference(p.name) && p.name !== BROWSER_SECRETS_PREFERENCE);
  const commands = manifest.commands.map((command) => {
    const signIn = DESCRIPTORS.find((d) => d.signIn && command.name === `${d.id}-login`)?.signIn;
    const withTitle: Command = signIn ? { ...command, title: signIn.title } : command;
    if (command.name === MENU_BAR_COMMAND) return withProviderDropdown(withTitle, readable);
    return command.name === LIST_COMMAND ? withComingSoonPreference(withTitle, readable) : withTitle;
  });
  for (const descriptor of DESCRIPTORS) {
    if (descriptor.signIn && !commands.some((c) => c.name === `${descriptor.id}-login`)) {
      throw new Error(
        `raycast/package.json needs a "${descriptor.id}-login" command (and raycast/src/${descriptor.id}-login.tsx) for "${descriptor.signIn.title}"`,
      );
    }
  }
  const providerPreferences = PROVIDER_PREFERENCES.map((preference) => manifestPreference(preference, readable));
  return { ...manifest, commands, preferences: [...providerPreferences, ...others, browserSecretsPreference()] };
}

/** The menu-bar dropdown offers the providers this version reads (a provider still to come has no meter to show). */
function withProviderDropdown(command: Command, readable: CanRead): Command {
  const preferences = (command.preferences ?? []) as Preference[];
  return {
    ...command,
    preferences: preferences.map((preference) => {
      if (preference.name !== MENU_BAR_PROVIDER_PREFERENCE) return preference;
      const data = (preference.data ?? []) as { title: string; value: string }[];
      const choices = data.filter((choice) => !PROVIDER_IDS.includes(choice.value));
      const shown = DESCRIPTORS.filter((d) => readable(d.id));
      return { ...preference, data: [...choices, ...shown.map((d) => ({ title: d.name, value: d.id }))] };
    }),
  };
}

/** The Show Coming Soon checkbox while some provider is still to come; gone (and nothing left empty) once every one is read. */
function withComingSoonPreference(command: Command, readable: CanRead): Command {
  const { preferences: declared, ...rest } = command;
  const preferences = ((declared ?? []) as Preference[]).filter((p) => p.name !== SHOW_COMING_SOON);
  const soon = DESCRIPTORS.filter((d) => !readable(d.id)).map((d) => d.name);
  if (soon.length > 0) preferences.push(comingSoonPreference(soon));
  return preferences.length > 0 ? { ...rest, name: command.name, preferences } : { ...rest, name: command.name };
}

/** raycast/package.json's text: regenerated, two-space JSON with a final newline (what prettier keeps). */
export function renderManifest(text: string): string {
  return `${JSON.stringify(generateManifest(JSON.parse(text) as RaycastManifest), null, 2)}\n`;
}
