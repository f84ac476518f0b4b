import { loadOptionalAddon } from "../optional-addon.js";
import type { SecretStore } from "../../ports/browser-credentials.js";

interface KeyringEntry {
  getPassword(): string | null | undefined;
  setPassword(password: string): void;
  deletePassword(): unknown;
}
type KeyringModule = { Entry: new (service: string, account: string) => KeyringEntry };

const NO_ENTRY = /no (matching )?entry|not found|NoEntry/i;

/**
 * The OS secret store through @napi-rs/keyring: the Keychain on macOS, the Secret Service on Linux
 * (generic items with `service` and `username` attributes). Loaded on first use, so starting the CLI
 * never loads the native addon. It cannot read the browsers' own Safe Storage items on Linux (their
 * schema differs): those go through secret-tool.
 */
export class KeyringSecretStore implements SecretStore {
  private module: KeyringModule | undefined;

  async get(service: string, account: string): Promise<string | null> {
    try {
      return this.entry(service, account).getPassword() ?? null;
    } catch (error) {
      if (NO_ENTRY.test((error as Error).message)) return null;
      throw error;
    }
  }

  async set(service: string, account: string, secret: string): Promise<void> {
    this.entry(service, account).setPassword(secret);
  }

  async delete(service: string, account: string): Promise<boolean> {
    // some backends delete nothing without a word: look first
    if ((await this.get(service, account)) === null) return false;
    try {
      this.entry(service, account).deletePassword();
      return true;
    } catch (error) {
      if (NO_ENTRY.test((error as Error).message)) return false;
      throw error;
    }
  }

  private entry(service: string, account: string): KeyringEntry {
    this.module ??= loadOptionalAddon<KeyringModule>("@napi-rs/keyring");
    return new this.module.Entry(service, account);
  }
}
