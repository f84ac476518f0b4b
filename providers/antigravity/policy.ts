import { meter, percentUsedFromRemaining } from "../../domain/meter.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";

/** One model's quota as the language server reports it. */
export interface ModelQuota {
  label: string;
  /** 0..1 left; null when the field was absent (proto3 JSON omits a zero). */
  remainingFraction: number | null;
  resetsAt: string | null;
}

export interface AntigravityReading {
  plan: string | null;
  email: string | null;
  models: ModelQuota[];
}

const NOT_REPORTED = "No remaining fraction reported: read as used up";

// The spec's order: Claude (not a thinking variant), Gemini Pro Low, Gemini Flash.
const RULES: ((label: string) => boolean)[] = [
  (l) => l.includes("claude") && !l.includes("thinking"),
  (l) => l.includes("pro") && l.includes("low"),
  (l) => l.includes("gemini") && l.includes("flash"),
];

export function antigravitySnapshot(reading: AntigravityReading): Snapshot {
  const [primary = null, secondary = null, tertiary = null] = selectModels(reading.models).map(modelMeter);
  const details: Detail[] = reading.email ? [{ label: "Account", value: reading.email }] : [];
  return { plan: reading.plan, primary, secondary, tertiary, details };
}

/**
 * Up to three models: each rule's first match in list order (a label already shown is not shown
 * twice), then the remaining models with the least quota left fill the meters still empty.
 */
export function selectModels(models: readonly ModelQuota[]): ModelQuota[] {
  const chosen: ModelQuota[] = [];
  const fresh = (m: ModelQuota) => !chosen.some((c) => c.label === m.label);
  for (const rule of RULES) {
    const match = models.find((m) => fresh(m) && rule(m.label.toLowerCase()));
    if (match) chosen.push(match);
  }
  const rest = models.filter(fresh).sort((a, b) => remaining(a) - remaining(b));
  for (const model of rest) if (chosen.length < 3 && fresh(model)) chosen.push(model);
  return chosen;
}

const remaining = (model: ModelQuota) => model.remainingFraction ?? 0;

function modelMeter(model: ModelQuota): Meter {
  return meter(model.label, {
    usedPercent: percentUsedFromRemaining(remaining(model) * 100),
    resetsAt: model.resetsAt,
    note: model.remainingFraction === null ? NOT_REPORTED : null,
  });
}
