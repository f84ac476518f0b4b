import { launchCommand, LaunchType, open, openExtensionPreferences } from "@raycast/api";
import type { ItemAction } from "./remedy-view.js";

export const COMMANDS = { list: "show-usage", menuBar: "menu-bar" } as const;

/** The manifest command that runs a provider's sign-in flow (descriptor.signIn): `<id>-login`. */
export function signInCommandOf(provider: string): string {
  return `${provider}-login`;
}

export function launchSignIn(provider: string): Promise<void> {
  return launchCommand({ name: signInCommandOf(provider), type: LaunchType.UserInitiated });
}

export async function runItemAction(action: ItemAction): Promise<void> {
  if (action.type === "open") await open(action.url);
  else if (action.type === "configure") await openExtensionPreferences();
  else await launchSignIn(action.provider);
}

/** What the list and the sign-in pass to the menu-bar command when they wake it up. */
export type MenuBarLaunchContext = {
  /** false: a fresh document is already cached, just redraw from it. */
  fetch?: boolean;
};

/** Ask the menu-bar command to redraw (and fetch, when asked); fine if the user disabled it. */
export async function refreshMenuBar(context: MenuBarLaunchContext = { fetch: false }): Promise<void> {
  try {
    await launchCommand({ name: COMMANDS.menuBar, type: LaunchType.Background, context });
  } catch {
    // the menu-bar command is not enabled
  }
}
