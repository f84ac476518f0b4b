/**
 * `npm run preview:raycast`: the Raycast views without a Mac, from the provider simulator, as HTML
 * and PNG in preview-out/ (open preview-out/index.html). Writes nothing else: the Store screenshots
 * in raycast/metadata/ change only with `npm run preview:raycast:store`.
 * PREVIEW_HTML_ONLY=1 skips the screenshots; CHROMIUM=/path picks the browser.
 */
import { previewCommand } from "./command.js";

await previewCommand(false);
