import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { keychainPassword, type SafeStorageAnswer } from "../../adapters/browser/chromium/safe-storage.js";
import { NodeProcessRunner } from "../../adapters/process/node-process-runner.js";
import { memoryTextStore, testAccess } from "./doubles.js";

/**
 * Another program's Keychain item (Claude Code's sign-in) is read through the browsers' secret gate:
 * only on macOS, never in a run nobody watches, once per run, and not again for six hours after a
 * denial; `security` is probed without `-w` (no prompt) before the item is read.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const ITEM = { service: "Claude Code-credentials", account: "me" };
const SIGN_IN = '{"claudeAiOauth":{"accessToken":"sk-ant-oat01-from-the-keychain"}}';

function spy(answer: SafeStorageAnswer) {
  const calls: string[] = [];
  return { calls, read: async (item: { service: string }) => (calls.push(item.service), answer) };
}

describe("BrowserAccess.appSecret", () => {
  it("reads the item on macOS in a watched run, once per run", async () => {
    const keychain = spy({ kind: "found", password: SIGN_IN });
    const access = testAccess({}, { platform: "darwin", interactive: true, appKeychain: keychain.read });
    expect(await access.appSecret?.(ITEM)).toBe(SIGN_IN);
    expect(await access.appSecret?.(ITEM)).toBe(SIGN_IN);
    expect(keychain.calls).toEqual(["Claude Code-credentials"]);
  });

  it("never asks in a run nobody watches, nor off macOS, nor with browser secrets switched off", async () => {
    const keychain = spy({ kind: "found", password: SIGN_IN });
    expect(await testAccess({}, { platform: "darwin", interactive: false, appKeychain: keychain.read }).appSecret?.(ITEM)).toBeNull();
    expect(await testAccess({}, { platform: "linux", interactive: true, appKeychain: keychain.read }).appSecret?.(ITEM)).toBeNull();
    const off = testAccess(
      {},
      { platform: "darwin", interactive: true, appKeychain: keychain.read, browserSecretsAllowed: async () => false },
    );
    expect(await off.appSecret?.(ITEM)).toBeNull();
    expect(keychain.calls).toEqual([]);
  });

  it("after a denial, leaves the item alone (kept between runs)", async () => {
    const store = memoryTextStore();
    const denied = spy({ kind: "denied", detail: "Keychain access was denied" });
    expect(await testAccess({}, { platform: "darwin", interactive: true, store, appKeychain: denied.read }).appSecret?.(ITEM)).toBeNull();
    const later = spy({ kind: "found", password: SIGN_IN });
    expect(await testAccess({}, { platform: "darwin", interactive: true, store, appKeychain: later.read }).appSecret?.(ITEM)).toBeNull();
    expect(later.calls).toEqual([]);
    expect([...store.items.keys()]).toEqual(["browser-cooldown/keychain:Claude Code-credentials"]);
  });
});

describe("keychainPassword (a stand-in `security` on disk)", () => {
  /** `security` that finds the item (exit 0), prints it for -w, or fails as told. */
  function fakeSecurity(body: string): string {
    const dir = mkdtempSync(join(tmpdir(), "quotabar-security-"));
    dirs.push(dir);
    const path = join(dir, "security");
    writeFileSync(path, `#!/bin/sh\necho "$*" >> '${dir}/calls'\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  }
  const processes = new NodeProcessRunner();

  it("probes without -w, then reads the item; the secret comes on stdout, never in the arguments", async () => {
    const security = fakeSecurity(`case "$*" in *-w*) printf '%s\\n' '${SIGN_IN}';; *) echo 'keychain: "login.keychain-db"';; esac`);
    expect(await keychainPassword(processes, {}, ITEM, security)).toEqual({ kind: "found", password: SIGN_IN });
  });

  it("says missing when the probe finds nothing (exit 44), and denied when the read is refused", async () => {
    expect(await keychainPassword(processes, {}, ITEM, fakeSecurity("exit 44"))).toMatchObject({ kind: "missing" });
    const refused = fakeSecurity(`case "$*" in *-w*) echo 'User interaction is not allowed.' >&2; exit 36;; esac`);
    expect(await keychainPassword(processes, {}, ITEM, refused)).toMatchObject({ kind: "denied" });
  });
});
