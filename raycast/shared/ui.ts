import { Color, Icon, type Image } from "@raycast/api";
import { getProgressIcon } from "@raycast/utils";
import type { Tone } from "../../presentation/severity.js";
import { TONE_HEX, withIncidentBadge } from "./icons.js";

/** The Raycast side of presentation's tones: shared by the list, the menu bar and the sign-in view. */
export const TONE_COLOR: Record<Tone, Color> = {
  normal: Color.Green,
  warning: Color.Orange,
  critical: Color.Red,
  muted: Color.SecondaryText,
};

export function progressIcon(progress: number, tone: Tone, incident = false): Image.ImageLike {
  const ring = getProgressIcon(Math.min(1, Math.max(0, progress)), TONE_HEX[tone]);
  return incident ? withIncidentBadge(ring) : ring;
}

const SYMBOLS = {
  warning: Icon.Warning,
  hint: Icon.LightBulb,
  clock: Icon.Clock,
  incident: Icon.ExclamationMark,
  globe: Icon.Globe,
  status: Icon.Heartbeat,
  circle: Icon.Circle,
  pace: Icon.Gauge,
  runsOut: Icon.Hourglass,
} as const;

export type SymbolName = keyof typeof SYMBOLS;

export function symbolIcon(symbol: SymbolName, tone: Tone): Image.ImageLike {
  return tone === "normal" ? SYMBOLS[symbol] : { source: SYMBOLS[symbol], tintColor: TONE_COLOR[tone] };
}
