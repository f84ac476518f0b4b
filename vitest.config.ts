import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "providers/**/*.test.ts", "simulator/**/*.test.ts"],
    exclude: ["**/node_modules/**", "raycast/**", "menubar-raycast/**"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    // one more worker than cores: most CLI and browser tests wait on a child process (vitest's default, cores - 1, is one worker on 2 cores)
    maxWorkers: availableParallelism() + 1,
    globalSetup: ["test/helpers/global-setup.ts"],
    setupFiles: ["test/helpers/network-guard.ts"],
  },
});
