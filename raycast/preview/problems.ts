/**
 * What the preview can find missing before it starts, each said in one line with the command that
 * fixes it. Node built-ins only: this runs before React or the extension's code is loaded, so a
 * missing dependency is reported instead of failing an import with a stack trace.
 */
import { delimiter, join } from "node:path";

/** A failure the preview explains in one line (no stack trace): a missing tool, or a screenshot that would not show its scenario. */
export class PreviewError extends Error {
  override name = "PreviewError";
}

/** The packages the preview loads from the extension's own node_modules (React and its test renderer). */
const EXTENSION_PACKAGES = ["react", "react-test-renderer"];

/** One line saying how to install the extension's dependencies, or null when they are there. */
export function missingExtensionDependencies(extensionDir: string, exists: (path: string) => boolean): string | null {
  const missing = EXTENSION_PACKAGES.filter((name) => !exists(join(extensionDir, "node_modules", name, "package.json")));
  if (missing.length === 0) return null;
  return `the Raycast extension's dependencies are not installed (${missing.join(", ")}): run (cd raycast && npm ci) first`;
}

const BROWSER_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];
const MAC_BROWSERS = ["/Applications/Chromium.app/Contents/MacOS/Chromium", "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"];

/** The browser to take screenshots with: `CHROMIUM` when set, else the first Chromium or Chrome on the PATH or in /Applications. */
export function findChromium(
  env: Record<string, string | undefined>,
  exists: (path: string) => boolean,
): { path: string; problem?: undefined } | { path?: undefined; problem: string } {
  if (env.CHROMIUM) {
    return exists(env.CHROMIUM)
      ? { path: env.CHROMIUM }
      : { problem: `CHROMIUM=${env.CHROMIUM} does not exist: point it at a Chromium or Chrome binary, or unset it` };
  }
  const onPath = (env.PATH ?? "").split(delimiter).filter(Boolean);
  const candidates = [...onPath.flatMap((dir) => BROWSER_NAMES.map((name) => join(dir, name))), ...MAC_BROWSERS];
  const found = candidates.find((candidate) => exists(candidate));
  if (found) return { path: found };
  return {
    problem:
      "Chromium not found: install it (apt-get install -y chromium, or brew install --cask chromium), set CHROMIUM=/path/to/chromium, or run with PREVIEW_HTML_ONLY=1 for HTML only",
  };
}

/** The font the pages ask for first; without it Chromium falls back to another and the Store screenshots look different. */
export const PAGE_FONT = "Inter";

/** One line saying how to install the pages' font, or null when it is there (or when `families` could not be listed: not fontconfig). */
export function missingFont(families: string | null): string | null {
  if (families === null) return null;
  const installed = families.split("\n").some((line) => line.split(",").some((family) => family.trim() === PAGE_FONT));
  return installed
    ? null
    : `the ${PAGE_FONT} font is not installed, so the screenshots use a fallback font: apt-get install -y fonts-inter (or install ${PAGE_FONT})`;
}
