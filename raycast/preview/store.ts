/**
 * `npm run preview:raycast:store`: runs the preview (every scenario checked), then copies its Store
 * screenshots to raycast/metadata/quotabar-<n>.png and its icons to raycast/assets/.
 */
import { previewCommand } from "./command.js";

await previewCommand(true);
