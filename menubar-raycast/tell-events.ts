import { showToast, Toast } from "@raycast/api";
import type { AfterFetch } from "../raycast/shared/use-usage.js";
import { raiseEvents } from "../raycast/shared/usage.js";
import { eventToast } from "./event-toast.js";

/**
 * After a menu-bar fetch: the events it raised (each once per window: what was told is kept in
 * Raycast's Cache), in one toast, which Raycast shows as a HUD while its window is closed. Nothing
 * is raised, nor counted as told, while the Notifications preference is off.
 */
export const tellEvents: AfterFetch = async (adapters, document) => {
  if (adapters.preferences.menuBarNotify === false) return;
  const toast = eventToast(await raiseEvents(adapters, document), document, new Date());
  // a warning, whichever event: Raycast's success style would tick a quota running out
  if (toast) await showToast({ style: Toast.Style.Failure, title: toast.title, message: toast.message });
};
