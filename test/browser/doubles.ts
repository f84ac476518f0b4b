import { createBrowserAccess, type BrowserAccessOptions } from "../../adapters/browser/browser-access.js";
import type { ChromiumBrowser } from "../../adapters/browser/chromium/chromium-browsers.js";
import type { SafeStorage, SafeStorageAnswer } from "../../adapters/browser/chromium/safe-storage.js";
import { NodeProcessRunner } from "../../adapters/process/node-process-runner.js";
import { MemorySecretStore } from "../../adapters/secrets/memory-secret-store.js";
import { BetterSqlite } from "../../adapters/sqlite/better-sqlite3.js";
import type { BrowserAccess } from "../../ports/browser-credentials.js";
import type { TextStore } from "../../ports/text-store.js";

export function memoryTextStore(): TextStore & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    read: async (key) => items.get(key) ?? null,
    write: async (key, text) => void items.set(key, text),
    remove: async (key) => void items.delete(key),
  };
}

/** A Safe Storage reader that records which browser was asked for, and answers as told (a real reader, or a fixed answer). */
export function spySafeStorage(answer: SafeStorage | SafeStorageAnswer): SafeStorage & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    password: async (browser: ChromiumBrowser, signal?: AbortSignal) => {
      calls.push(browser.id);
      return "kind" in answer ? answer : answer.password(browser, signal);
    },
  };
}

/** The real readers over a fixture HOME, with doubles where a test needs control. */
export function testAccess(
  env: Record<string, string | undefined>,
  overrides: Partial<BrowserAccessOptions> = {},
): BrowserAccess & { options: BrowserAccessOptions } {
  const options: BrowserAccessOptions = {
    env,
    platform: "linux",
    sqlite: new BetterSqlite(),
    secrets: new MemorySecretStore(),
    processes: new NodeProcessRunner(),
    store: memoryTextStore(),
    clock: { now: () => new Date() },
    interactive: false,
    browserSecretsAllowed: async () => true,
    ...overrides,
  };
  return { ...createBrowserAccess(options), options };
}
