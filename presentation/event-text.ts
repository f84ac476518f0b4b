import { accountTitle } from "./account-name.js";
import { withoutControls } from "../domain/untrusted-text.js";
import type { QuotabarEvent } from "../domain/usage-events.js";
import type { UsageDocument } from "../domain/usage-document.js";
import type { Notification } from "../ports/notifier.js";
import { formatCountdown, formatPercent, shorten } from "./format.js";
import { CRITICAL_PERCENT } from "./severity.js";

/** Longest body a notification gets (an incident's title is upstream text). */
const MAX_BODY = 200;

/**
 * An event as a notification a person reads: "z.ai · Tokens at 85%" / "Crossed 80%, resets in 2h 00m".
 * Names and labels come from the document the event was raised from (the event holds ids only).
 */
export function eventNotification(event: QuotabarEvent, document: UsageDocument | null, now: Date): Notification {
  const { title, body, urgent } = words(event, document, now);
  return { event, title: oneLine(title), body: oneLine(body), urgent };
}

/** One line of plain text: a newline becomes a space, other controls and escapes go. */
function oneLine(text: string): string {
  return withoutControls(text).replace(/ {2,}/g, " ").trim();
}

function words(event: QuotabarEvent, document: UsageDocument | null, now: Date): Omit<Notification, "event"> {
  const provider = document?.providers.find((p) => p.id === event.provider && (p.account ?? null) === event.account);
  const name = provider ? accountTitle(provider) : event.account === null ? event.provider : `${event.provider} · ${event.account}`;
  if (event.type === "threshold") {
    const reset = event.resetsAt ? `, resets in ${formatCountdown(event.resetsAt, now)}` : "";
    return {
      title: `${name} · ${event.label} at ${formatPercent(event.usedPercent)}`,
      body: `Crossed ${formatPercent(event.threshold)}${reset}.`,
      urgent: event.threshold >= CRITICAL_PERCENT,
    };
  }
  if (event.type === "runOut") {
    const label = provider?.[event.meter]?.label ?? event.meter;
    const early = formatCountdown(event.resetsAt, new Date(event.runsOutAt));
    return {
      title: `${name} · ${label} runs out in ${formatCountdown(event.runsOutAt, now)}`,
      body: `At this pace it is used up ${early} before the reset.`,
      urgent: true,
    };
  }
  return {
    title: `${name} · ${event.indicator === "maintenance" ? "maintenance" : `${event.indicator} incident`}`,
    body: shorten(event.title, MAX_BODY),
    urgent: event.indicator === "major" || event.indicator === "critical",
  };
}
