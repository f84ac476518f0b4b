import { environment, getPreferenceValues, LaunchType } from "@raycast/api";
import type { QuotabarPreferences } from "../raycast/src/preferences.js";
import { useUsage } from "../raycast/src/use-usage.js";
import { menuBarModel, shouldFetch } from "../raycast/src/view-model.js";
import { UsageMenuBar } from "./usage-menu-bar.js";

/**
 * The menu-bar command (manifest `mode: menu-bar`, interval 5m). Short-lived: it draws the cached
 * document at once, fetches when launched in the background (or when the cache is old), and lets
 * Raycast unload it as soon as `isLoading` turns false.
 */
export default function MenuBarCommand() {
  const { menuBarProvider = "auto" } = getPreferenceValues<QuotabarPreferences>();
  const background = environment.launchType === LaunchType.Background;
  const { document, isLoading, revalidate, error } = useUsage({
    execute: (cached) => shouldFetch(cached, new Date(), background),
    onError: () => undefined, // shown in the menu instead of a toast
  });
  return <UsageMenuBar model={menuBarModel(document, new Date(), menuBarProvider)} isLoading={isLoading} error={error} onRefresh={revalidate} />;
}
