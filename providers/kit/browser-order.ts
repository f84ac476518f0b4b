/**
 * The order browsers are read in: the default import order (SweetCookieKit's, credentials.md 7.2,
 * for providers that name none of their own), and on Linux Chromium read right after Chrome wherever
 * an order names Chrome but not Chromium: Linux distributions ship Chromium where macOS users have
 * Chrome, and its basic store needs no OS secret, so no prompt comes of it.
 */
export const DEFAULT_BROWSER_ORDER: readonly string[] = [
  "safari",
  "chrome",
  "edge",
  "brave",
  "arc",
  "dia",
  "atlas",
  "chromium",
  "helium",
  "vivaldi",
  "yandex",
  "firefox",
  "zen",
  "chrome-beta",
  "chrome-canary",
  "arc-beta",
  "arc-canary",
  "brave-beta",
  "brave-nightly",
  "edge-beta",
  "edge-canary",
  "comet",
];

/** A provider's browser order as this platform reads it (Chromium after Chrome on Linux). */
export function browserOrder(order: readonly string[], platform: NodeJS.Platform = process.platform): string[] {
  if (platform !== "linux" || order.includes("chromium")) return [...order];
  const chrome = order.indexOf("chrome");
  return chrome < 0 ? [...order] : [...order.slice(0, chrome + 1), "chromium", ...order.slice(chrome + 1)];
}
