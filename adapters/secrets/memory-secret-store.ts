import type { SecretStore } from "../../ports/browser-credentials.js";

/** Secrets kept in memory for the life of the process (tests, compositions without an OS store). */
export class MemorySecretStore implements SecretStore {
  private readonly items = new Map<string, string>();

  async get(service: string, account: string): Promise<string | null> {
    return this.items.get(key(service, account)) ?? null;
  }

  async set(service: string, account: string, secret: string): Promise<void> {
    this.items.set(key(service, account), secret);
  }

  async delete(service: string, account: string): Promise<boolean> {
    return this.items.delete(key(service, account));
  }
}

const key = (service: string, account: string) => `${service}\u0000${account}`;
