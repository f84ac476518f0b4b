import { environment, getPreferenceValues, LaunchType, type LaunchProps } from "@raycast/api";
import { usePromise } from "@raycast/utils";
import type { MenuBarLaunchContext } from "../raycast/shared/actions.js";
import type { QuotabarPreferences } from "../raycast/shared/preferences.js";
import { raycastAdapters } from "../raycast/shared/raycast-runtime.js";
import { sessionAlerts } from "../raycast/shared/usage.js";
import { useUsage } from "../raycast/shared/use-usage.js";
import { menuBarModel } from "./menu-bar-model.js";
import { titleOptionsOf } from "./menu-bar-title.js";
import { shouldFetch } from "./refresh-policy.js";
import { tellEvents } from "./tell-events.js";
import { UsageMenuBar } from "./usage-menu-bar.js";

/**
 * The menu-bar command (manifest `mode: menu-bar`, interval 1m: a rotating title moves on). Short-lived:
 * it draws the cached document at once, fetches when a background launch finds it 5 minutes old (or
 * a user launch a minute old), tells the events a fetch raised, and lets Raycast unload it as soon
 * as `isLoading` turns false.
 */
export default function MenuBarCommand(props: Partial<LaunchProps<{ launchContext: MenuBarLaunchContext }>>) {
  const preferences = getPreferenceValues<QuotabarPreferences>();
  const { menuBarProvider = "auto" } = preferences;
  // woken by the list after its refresh: the cached document is fresh, only redraw
  const background = environment.launchType === LaunchType.Background && props.launchContext?.fetch !== false;
  // each background fetch (every 5 minutes) also checks the web sessions kept alive (spec section 8)
  const { document, isLoading, revalidate, error } = useUsage({
    execute: (cached) => shouldFetch(cached, new Date(), background),
    onError: () => undefined, // shown in the menu instead of a toast
    keepSessions: background,
    afterFetch: tellEvents,
  });
  // a keepalive that gave up (in an earlier run) says so in the menu the user opens
  const alerts = usePromise(loadAlerts, [], { onError: () => undefined });
  return (
    <UsageMenuBar
      model={menuBarModel(document, new Date(), menuBarProvider, alerts.data ?? {}, titleOptionsOf(preferences))}
      isLoading={isLoading || alerts.isLoading}
      error={error}
      onRefresh={revalidate}
    />
  );
}

const loadAlerts = () => sessionAlerts(raycastAdapters());
