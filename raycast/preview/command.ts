/**
 * `npm run preview:raycast` and `npm run preview:raycast:store`. Checks what the preview needs (the
 * extension's dependencies, Chromium) and says in one line what to run when something is missing,
 * then loads and runs the preview (run.tsx) into preview-out/. The store variant then copies the
 * checked screenshots and icons over the tracked raycast/metadata/ and raycast/assets/: that is
 * the only way the preview changes tracked files.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { findChromium, missingExtensionDependencies, missingFont, PreviewError } from "./problems.js";
import { storeFiles } from "./scenarios.js";

const EXTENSION = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const REPO = resolve(EXTENSION, "..");
export const PREVIEW_OUT = join(REPO, "preview-out");

/** The icons the preview draws, and where the extension keeps them. */
const ICONS = [
  { from: "icon.png", to: join("assets", "icon.png") },
  { from: "icon@dark.png", to: join("assets", "icon@dark.png") },
];

/** Copies the Store screenshots and the icons from the preview's output into the extension; the other quotabar-*.png go. */
export function copyToStore(out: string, extension: string): string[] {
  const screenshots = storeFiles();
  const copies = [...screenshots.map(({ from, to }) => ({ from, to: join("metadata", to) })), ...ICONS];
  const missing = copies.filter(({ from }) => !existsSync(join(out, from))).map(({ from }) => from);
  if (missing.length > 0) throw new PreviewError(`the preview did not write ${missing.join(", ")}; nothing was copied`);
  const keep = new Set(screenshots.map(({ to }) => to));
  for (const name of readdirSync(join(extension, "metadata"))) {
    if (/^quotabar-\d+\.png$/.test(name) && !keep.has(name)) rmSync(join(extension, "metadata", name));
  }
  for (const { from, to } of copies) copyFileSync(join(out, from), join(extension, to));
  return copies.map(({ to }) => to);
}

/** The installed font families as fontconfig lists them; null without fontconfig (macOS has its own fonts). */
function fontFamilies(): string | null {
  try {
    return execFileSync("fc-list", [":", "family"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 30_000 });
  } catch {
    return null;
  }
}

async function main(store: boolean): Promise<void> {
  const dependencies = missingExtensionDependencies(EXTENSION, existsSync);
  if (dependencies) throw new PreviewError(dependencies);
  const htmlOnly = process.env.PREVIEW_HTML_ONLY === "1";
  if (htmlOnly && store) throw new PreviewError("the Store screenshots need Chromium: run without PREVIEW_HTML_ONLY=1");
  const chromium = htmlOnly ? null : findChromium(process.env, existsSync);
  if (chromium?.problem) throw new PreviewError(chromium.problem);
  const font = chromium ? missingFont(fontFamilies()) : null;
  if (font && store) throw new PreviewError(font);
  if (font) console.error(`preview: note: ${font}`);

  // loaded only now: React and the extension come from raycast/node_modules, checked above
  const { runPreview } = await import("./run.js");
  await runPreview({ out: PREVIEW_OUT, browser: chromium?.path ?? null });
  console.log(`wrote ${relative(process.cwd(), PREVIEW_OUT) || "."}/ (open index.html)`);
  if (store) {
    const copied = copyToStore(PREVIEW_OUT, EXTENSION);
    console.log(`updated ${copied.map((to) => relative(process.cwd(), join(EXTENSION, to))).join(", ")}`);
  }
}

/** Runs the preview; a known problem is one line on stderr and exit code 1, anything else keeps its stack. */
export async function previewCommand(store: boolean): Promise<void> {
  try {
    await main(store);
  } catch (error) {
    if (!(error instanceof PreviewError)) throw error;
    console.error(`preview: ${error.message}`);
    process.exitCode = 1;
  }
}
