/**
 * Screenshots with headless Chromium, run asynchronously: the browser takes seconds per page, and
 * a synchronous child process would stop this process's event loop for all of them (timers,
 * sockets and anything else the preview is waiting on).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { PreviewError } from "./problems.js";

const run = promisify(execFile);

/**
 * Headless, offline, and the same pixels every run. Glyphs placed at sub-pixel offsets are drawn
 * from a cache that raster threads fill in whatever order they run, so under load the same page
 * came out in several slightly different versions; whole-pixel glyph positions do not.
 */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-extensions",
  "--no-first-run",
  "--no-default-browser-check",
  "--hide-scrollbars",
  "--disable-font-subpixel-positioning",
];

export interface ShotSize {
  width: number;
  height: number;
  scale: number;
}

/** Renders `html` (a file) at `size` into `png`; transparent keeps the page's own transparency (the icon). */
export async function screenshot(browser: string, html: string, png: string, size: ShotSize, transparent = false): Promise<void> {
  const profile = mkdtempSync(join(tmpdir(), "quotabar-chromium-"));
  rmSync(png, { force: true });
  try {
    await run(
      browser,
      [
        ...CHROMIUM_FLAGS,
        `--user-data-dir=${profile}`,
        `--force-device-scale-factor=${size.scale}`,
        `--window-size=${size.width},${size.height}`,
        ...(transparent ? ["--default-background-color=00000000"] : []),
        `--screenshot=${png}`,
        pathToFileURL(html).href,
      ],
      { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "");
    const line = stderr.split("\n").find((l) => l.trim() !== "") ?? (error as Error).message;
    throw new PreviewError(`Chromium could not screenshot ${basename(html)}: ${line.trim()}`);
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
  if (!existsSync(png)) throw new PreviewError(`Chromium wrote no screenshot of ${basename(html)}`);
}
