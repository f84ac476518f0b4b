import type { QuotabarEvent } from "../domain/usage-events.js";

/** An event, and how a person reads it (presentation/event-text.ts). */
export interface Notification {
  event: QuotabarEvent;
  /** One line of plain text each: no control character, no markup of any kind meant. */
  title: string;
  body: string;
  /** A threshold of 90 % or more, a run-out, a major incident: the desktop shows it as critical. */
  urgent: boolean;
}

/**
 * Delivers notifications: a desktop's notification service, a command of the user's, Raycast's
 * HUD. Never throws: a delivery that fails is reported by the adapter (once where it would repeat).
 */
export interface Notifier {
  notify(notification: Notification): Promise<void>;
}
