import type { SecretStore } from "../../ports/browser-credentials.js";

/**
 * Names every entry after the config directory it belongs to (`cookie:amp|/home/me/.config/quotabar`):
 * the OS store is the user's, shared by every HOME and config directory they run quotabar with, and
 * a run must see only what runs with its own directory kept.
 */
export class ScopedSecretStore implements SecretStore {
  constructor(
    private readonly inner: SecretStore,
    private readonly scope: string,
  ) {}

  get(service: string, account: string): Promise<string | null> {
    return this.inner.get(service, this.account(account));
  }

  set(service: string, account: string, secret: string): Promise<void> {
    return this.inner.set(service, this.account(account), secret);
  }

  delete(service: string, account: string): Promise<boolean> {
    return this.inner.delete(service, this.account(account));
  }

  private account(account: string): string {
    return `${account}|${this.scope}`;
  }
}
