import { launchCommand, LaunchType, open, openExtensionPreferences } from "@raycast/api";
import type { ItemAction } from "./view-model.js";

export const COMMANDS = { list: "show-usage", menuBar: "menu-bar", login: "copilot-login" } as const;

export async function runItemAction(action: ItemAction): Promise<void> {
  if (action.type === "open") await open(action.url);
  else if (action.type === "configure") await openExtensionPreferences();
  else await launchCommand({ name: COMMANDS.login, type: LaunchType.UserInitiated });
}

/** Ask the menu-bar command to redraw from the new cached document; fine if the user disabled it. */
export async function refreshMenuBar(): Promise<void> {
  try {
    await launchCommand({ name: COMMANDS.menuBar, type: LaunchType.Background });
  } catch {
    // the menu-bar command is not enabled
  }
}
