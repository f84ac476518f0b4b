import { Color, Icon, type Image } from "@raycast/api";
import { getProgressIcon } from "@raycast/utils";
import { TONE_HEX, withIncidentBadge } from "./icons.js";
import type { AccessoryModel, MenuIcon, Tone } from "./view-model.js";

/** The Raycast side of the view models' tones and icons: shared by the list, the menu bar and the login view. */
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
} as const;

export function symbolIcon(symbol: keyof typeof SYMBOLS, tone: Tone): Image.ImageLike {
  return tone === "normal" ? SYMBOLS[symbol] : { source: SYMBOLS[symbol], tintColor: TONE_COLOR[tone] };
}

export function menuIcon(icon: MenuIcon): Image.ImageLike {
  return icon.kind === "progress" ? progressIcon(icon.progress, icon.tone) : symbolIcon(icon.symbol, icon.tone);
}

export function accessoryOf(model: AccessoryModel) {
  const color = model.tone ? TONE_COLOR[model.tone] : undefined;
  const icon = model.icon === "clock" ? Icon.Clock : undefined;
  return {
    ...(model.tag !== undefined ? { tag: color ? { value: model.tag, color } : model.tag } : {}),
    ...(model.text !== undefined ? { text: color ? { value: model.text, color } : model.text } : {}),
    ...(icon ? { icon } : {}),
    ...(model.tooltip ? { tooltip: model.tooltip } : {}),
  };
}
