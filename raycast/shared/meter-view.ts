import type { Meter } from "../../domain/usage-document.js";
import { formatPercent, formatQuantity, resetText } from "../../presentation/format.js";
import { meterTone, type Tone } from "../../presentation/severity.js";

/** A meter as both views show it: the ring, the percent, the quantity, the reset. Pure. */
export interface MeterView {
  label: string;
  /** 0..100 for a progress ring; unlimited meters are shown full. */
  percent: number | null;
  /** "37%", "Unlimited", or "" when the provider gives no ratio. */
  percentText: string;
  quantity: string | null;
  /** "resets in 3d 4h", "reset due" */
  reset: string | null;
  resetsAt: string | null;
  note: string | null;
  tone: Tone;
}

export function meterView(meter: Meter, now: Date): MeterView {
  return {
    label: meter.label,
    percent: meter.unlimited ? 100 : meter.usedPercent,
    percentText: meter.unlimited ? "Unlimited" : meter.usedPercent === null ? "" : formatPercent(meter.usedPercent),
    quantity: formatQuantity(meter),
    reset: resetText(meter, now),
    resetsAt: meter.resetsAt,
    note: meter.note && meter.note !== "Unlimited" ? meter.note : null,
    tone: meterTone(meter),
  };
}
