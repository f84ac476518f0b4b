import type { Tone } from "../../presentation/severity.js";

/** Raycast's palette as hex, because the progress ring is an SVG data URI (no dynamic colours there). */
export const TONE_HEX: Record<Tone, string> = {
  normal: "#59D499",
  warning: "#FF8A4C",
  critical: "#FF6363",
  muted: "#9A9A9A",
};

/**
 * Adds an incident badge (a red dot, top right) to an SVG data URI such as `getProgressIcon` returns.
 * Anything that is not an SVG data URI comes back unchanged.
 */
export function withIncidentBadge(dataUri: string, color = TONE_HEX.critical): string {
  const prefix = "data:image/svg+xml,";
  if (!dataUri.startsWith(prefix)) return dataUri;
  const svg = decodeURIComponent(dataUri.slice(prefix.length));
  if (!svg.includes("</svg>")) return dataUri;
  const badge = `<circle cx="82" cy="18" r="17" fill="${color}" stroke="white" stroke-width="4" />`;
  return prefix + encodeURIComponent(svg.replace(/<\/svg>\s*$/, `${badge}</svg>`));
}
