import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "providers/**/*.test.ts", "simulator/**/*.test.ts"],
    exclude: ["**/node_modules/**", "raycast/**", "menubar-raycast/**"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    globalSetup: ["test/helpers/global-setup.ts"],
    setupFiles: ["test/helpers/network-guard.ts"],
  },
});
