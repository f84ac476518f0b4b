import { overQuotaNote } from "../../domain/coerce.js";
import { meter } from "../../domain/meter.js";
import type { Detail, Snapshot } from "../../domain/usage-document.js";

/** One usage bar of the settings page: its percentage and the reset time of its `data-time`. */
export interface OllamaBar {
  usedPercent: number;
  resetsAt: string | null;
}

/** What the Cloud Usage section of ollama.com/settings shows. */
export interface OllamaReading {
  /** The badge beside "Cloud Usage", as the page writes it (`free`, `pro`, `max`). */
  badge: string | null;
  email: string | null;
  /** The "Session usage" bar, or the "Hourly usage" bar of pages that name it so. */
  session: (OllamaBar & { hourly: boolean }) | null;
  weekly: OllamaBar | null;
}

const TIERS = ["Free", "Pro", "Max"];

/** The badge as one of the tiers Free, Pro or Max; a badge naming none of them is shown as written, capitalised. */
export function ollamaPlan(badge: string | null): string | null {
  const text = badge?.replace(/\s+/g, " ").trim() ?? "";
  if (text === "") return null;
  const words = text.toLowerCase().split(" ");
  // the highest tier named wins ("Pro Max" is Max)
  const tier = [...TIERS].reverse().find((name) => words.includes(name.toLowerCase()));
  return tier ?? text[0]!.toUpperCase() + text.slice(1);
}

/** Session first, weekly second; a page with only the weekly bar shows it as the primary meter. */
export function ollamaSnapshot(reading: OllamaReading): Snapshot {
  const { session, weekly } = reading;
  const sessionMeter = session
    ? meter(session.hourly ? "Hourly" : "Session", {
        usedPercent: session.usedPercent,
        resetsAt: session.resetsAt,
        note: overQuotaNote(session.usedPercent),
        // only the "Session usage" bar is known to be the 5-hour window
        windowMinutes: session.hourly ? null : 300,
      })
    : null;
  const weeklyMeter = weekly
    ? meter("Weekly", {
        usedPercent: weekly.usedPercent,
        resetsAt: weekly.resetsAt,
        windowMinutes: 10_080,
        note: overQuotaNote(weekly.usedPercent),
      })
    : null;
  const details: Detail[] = reading.email ? [{ label: "Account", value: reading.email }] : [];
  return {
    plan: ollamaPlan(reading.badge),
    primary: sessionMeter ?? weeklyMeter,
    secondary: sessionMeter ? weeklyMeter : null,
    tertiary: null,
    details,
  };
}
