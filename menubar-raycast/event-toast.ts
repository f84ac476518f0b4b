/**
 * The events a menu-bar refresh raised, as the one toast that tells them (Raycast shows a toast as
 * a HUD when its window is closed, and a HUD shows only the title: the title carries the news).
 * Pure and free of `@raycast/*`; the words are presentation/event-text.ts's, as the CLI's
 * notifications have them.
 */
import type { QuotabarEvent } from "../domain/usage-events.js";
import type { UsageDocument } from "../domain/usage-document.js";
import { eventNotification } from "../presentation/event-text.js";
import { shorten } from "../presentation/format.js";

/** Longest message under the title. */
const MAX_MESSAGE = 240;

export interface EventToast {
  /** The most urgent event's title, and how many more there are: "z.ai · Weekly tokens runs out in 2d 23h · 1 more". */
  title: string;
  /** That event's sentence, then the other events' titles. */
  message: string;
  urgent: boolean;
}

/** The toast for a refresh's events; null when there are none. */
export function eventToast(events: readonly QuotabarEvent[], document: UsageDocument | null, now: Date): EventToast | null {
  const told = events.map((event) => eventNotification(event, document, now));
  // the most urgent first; otherwise in the document's order
  const ordered = [...told.filter((n) => n.urgent), ...told.filter((n) => !n.urgent)];
  const [first, ...rest] = ordered;
  if (!first) return null;
  return {
    title: rest.length > 0 ? `${first.title} · ${rest.length} more` : first.title,
    message: shorten([first.body, ...rest.map((n) => n.title)].filter(Boolean).join(" · "), MAX_MESSAGE),
    urgent: first.urgent,
  };
}
