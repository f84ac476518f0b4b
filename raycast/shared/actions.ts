import { launchCommand, LaunchType, open, openExtensionPreferences, showToast, Toast } from "@raycast/api";
import { raycastAdapters } from "./raycast-runtime.js";
import type { ItemAction } from "./remedy-view.js";
import { refreshSession } from "./usage.js";

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
  else if (action.type === "refresh-session") await refreshSessionNow(action.provider);
  else await launchSignIn(action.provider);
}

/** "Refresh Session": renew the provider's web session now, say how it went, and have the menu bar fetch afresh. */
export async function refreshSessionNow(provider: string): Promise<boolean> {
  await showToast({ style: Toast.Style.Animated, title: "Refreshing session…" });
  try {
    const report = await refreshSession(raycastAdapters(), provider);
    if (report.outcome === "renewed") {
      await showToast({ style: Toast.Style.Success, title: `${report.name} session renewed` });
      await refreshMenuBar({ fetch: true });
      return true;
    }
    await showToast({
      style: Toast.Style.Failure,
      title: report.error?.message ?? `${report.name} session was not renewed`,
      message: report.error?.hint ?? report.detail,
    });
  } catch (error) {
    await showToast({ style: Toast.Style.Failure, title: "Could not refresh the session", message: (error as Error).message });
  }
  return false;
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
