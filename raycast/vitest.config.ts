import { availableParallelism } from "node:os";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = dirname(fileURLToPath(import.meta.url));
const reactDir = resolve(here, "node_modules", "react");

/**
 * The extension's tests: view models plainly, commands against the `@raycast/api` test double.
 * `react` is pinned to the extension's copy, so menubar-raycast/ (outside this folder) and
 * react-test-renderer share one React. Run from the repository root: `npm run test:raycast`.
 */
export default defineConfig({
  root: resolve(here, ".."),
  resolve: {
    alias: [
      { find: /^@raycast\/api$/, replacement: resolve(here, "doubles/raycast-api/api.ts") },
      { find: /^@raycast\/utils$/, replacement: resolve(here, "doubles/raycast-api/utils.ts") },
      { find: /^react$/, replacement: resolve(reactDir, "index.js") },
      { find: /^react\/jsx-runtime$/, replacement: resolve(reactDir, "jsx-runtime.js") },
      { find: /^react\/jsx-dev-runtime$/, replacement: resolve(reactDir, "jsx-dev-runtime.js") },
    ],
  },
  esbuild: { jsx: "automatic" },
  test: {
    include: ["raycast/test/**/*.test.{ts,tsx}"],
    exclude: ["**/node_modules/**"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    // the preview's tests wait on Chromium: one more worker than cores (vitest's default is cores - 1)
    maxWorkers: availableParallelism() + 1,
  },
});
