import type { Meter, ProviderStatus, ProviderUsage, StatusIndicator } from "../domain/usage-document.js";

/** How alarming a thing is; each driver maps it to its colours. */
export type Tone = "normal" | "warning" | "critical" | "muted";

/** A meter turns yellow at 70 % and red at 90 %. */
export const WARNING_PERCENT = 70;
export const CRITICAL_PERCENT = 90;

export function toneOf(percent: number | null): Tone {
  if (percent === null) return "muted";
  if (percent >= CRITICAL_PERCENT) return "critical";
  if (percent >= WARNING_PERCENT) return "warning";
  return "normal";
}

export function meterTone(meter: Meter): Tone {
  return meter.unlimited ? "normal" : toneOf(meter.usedPercent);
}

export function metersOf(usage: ProviderUsage): Meter[] {
  return [usage.primary, usage.secondary, usage.tertiary].filter((m): m is Meter => m !== null);
}

/** The fullest meter of a provider (unlimited ones never count as full). */
export function fullestMeter(usage: ProviderUsage): Meter | null {
  let best: Meter | null = null;
  for (const meter of metersOf(usage)) {
    if (meter.unlimited || meter.usedPercent === null) continue;
    if (best === null || meter.usedPercent > (best.usedPercent as number)) best = meter;
  }
  return best;
}

/** A status page that reports anything but "all systems operational". */
export function hasIncident(status: ProviderStatus | null): boolean {
  return status !== null && (status.indicator !== "none" || status.incidents.length > 0);
}

export function incidentLabel(status: ProviderStatus): string {
  return status.indicator === "maintenance" ? "Maintenance" : "Incident";
}

/** Major and critical incidents are critical, maintenance is muted, the rest a warning. */
export function indicatorTone(indicator: StatusIndicator | string): Tone {
  if (indicator === "none") return "normal";
  if (indicator === "major" || indicator === "critical") return "critical";
  if (indicator === "maintenance") return "muted";
  return "warning";
}

/** The tone of a status page that reports something (hasIncident): like indicatorTone, but never "normal". */
export function incidentTone(status: ProviderStatus): Tone {
  const tone = indicatorTone(status.indicator);
  return tone === "normal" ? "warning" : tone;
}
