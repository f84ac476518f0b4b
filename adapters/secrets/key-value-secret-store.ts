import type { SecretStore } from "../../ports/browser-credentials.js";

/** An encrypted async key-value store, as Raycast's LocalStorage is. */
export interface EncryptedKeyValue {
  getItem<T extends string | number | boolean>(key: string): Promise<T | undefined>;
  setItem(key: string, value: string | number | boolean): Promise<void>;
  removeItem(key: string): Promise<void>;
}

/** Secrets in an app's own encrypted storage (Raycast's LocalStorage, which Raycast keeps encrypted), under `secret/<service>/<account>`. */
export class KeyValueSecretStore implements SecretStore {
  constructor(private readonly storage: EncryptedKeyValue) {}

  async get(service: string, account: string): Promise<string | null> {
    const value = await this.storage.getItem<string>(key(service, account));
    return typeof value === "string" ? value : null;
  }

  async set(service: string, account: string, secret: string): Promise<void> {
    await this.storage.setItem(key(service, account), secret);
  }

  async delete(service: string, account: string): Promise<boolean> {
    const existed = (await this.get(service, account)) !== null;
    await this.storage.removeItem(key(service, account));
    return existed;
  }
}

const key = (service: string, account: string) => `secret/${service}/${account}`;
