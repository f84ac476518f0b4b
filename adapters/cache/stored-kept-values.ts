import { storageName, type AccountKey } from "../../domain/account.js";
import type { SecretStore } from "../../ports/browser-credentials.js";
import type { Clock } from "../../ports/clock.js";
import type { KeptValues, KeptValueStore } from "../../ports/kept-values.js";
import type { TextStore } from "../../ports/text-store.js";
import { credentialScope } from "./credential-scope.js";

/** A kept value bigger than this is not kept (a refresh then just asks again). */
const MAX_TEXT = 1_000_000;
const SECRET_SERVICE = "quotabar";

interface Kept<T> {
  scope: string;
  values: Record<string, { value: T; expiresAt: number }>;
}

/**
 * Plain values in the cache directory (`kept/<provider>`), secrets in the secret store (account
 * `kept:<provider>`; `<provider>@<account>` for a named account), one record each per account, stamped with the credential's scope: a record
 * of another credential reads as empty and is replaced on the next write. Failing to read or write
 * costs a round trip, never the refresh.
 */
export class StoredKeptValues implements KeptValueStore {
  constructor(
    private readonly store: TextStore,
    private readonly secrets: SecretStore,
    private readonly clock: Clock,
    /** What the requests went to (QUOTABAR_ORIGIN_MAP): a simulator's token is never sent to the real service. */
    private readonly origins = "",
  ) {}

  scoped(key: AccountKey, credential: readonly string[], onSecret: (secret: string) => void): KeptValues {
    const scope = credentialScope(this.origins, credential);
    const providerId = storageName(key);
    const plain = new KeptRecord<unknown>(
      scope,
      this.clock,
      () => this.store.read(`kept/${providerId}`),
      (text) => this.store.write(`kept/${providerId}`, text),
    );
    const secret = new KeptRecord<string>(
      scope,
      this.clock,
      () => this.secrets.get(SECRET_SERVICE, `kept:${providerId}`),
      (text) => this.secrets.set(SECRET_SERVICE, `kept:${providerId}`, text),
    );
    return {
      read: (name) => plain.read(name),
      write: (name, value, ttlMs) => plain.write(name, value, ttlMs),
      async readSecret(name) {
        const value = await secret.read(name);
        if (typeof value !== "string") return null;
        onSecret(value);
        return value;
      },
      async writeSecret(name, value, ttlMs) {
        onSecret(value);
        await secret.write(name, value, ttlMs);
      },
      async forget(name) {
        await Promise.all([plain.forget(name), secret.forget(name)]);
      },
    };
  }

  async removeAll(key: AccountKey): Promise<void> {
    const providerId = storageName(key);
    await Promise.all([
      this.store.remove(`kept/${providerId}`).catch(() => undefined),
      this.secrets.delete(SECRET_SERVICE, `kept:${providerId}`).catch(() => false),
    ]);
  }
}

/** One provider's record in one place: read once per run, rewritten on each change. */
class KeptRecord<T> {
  private loaded: Promise<Kept<T>> | null = null;

  constructor(
    private readonly scope: string,
    private readonly clock: Clock,
    private readonly load: () => Promise<string | null>,
    private readonly save: (text: string) => Promise<void>,
  ) {}

  async read(name: string): Promise<T | null> {
    const entry = (await this.current()).values[name];
    return entry && entry.expiresAt > this.clock.now().getTime() ? entry.value : null;
  }

  async write(name: string, value: T, ttlMs: number): Promise<void> {
    const kept = await this.current();
    const now = this.clock.now().getTime();
    // expired entries go when the record is next written
    for (const [key, entry] of Object.entries(kept.values)) if (entry.expiresAt <= now) delete kept.values[key];
    kept.values[name] = { value, expiresAt: now + Math.max(0, ttlMs) };
    await this.persist(kept);
  }

  async forget(name: string): Promise<void> {
    const kept = await this.current();
    if (!(name in kept.values)) return;
    delete kept.values[name];
    await this.persist(kept);
  }

  private async persist(kept: Kept<T>): Promise<void> {
    const text = JSON.stringify(kept);
    if (text.length > MAX_TEXT) return;
    await this.save(text).catch(() => undefined);
  }

  private current(): Promise<Kept<T>> {
    this.loaded ??= this.load()
      .catch(() => null)
      .then((text) => parsed<T>(text, this.scope));
    return this.loaded;
  }
}

function parsed<T>(text: string | null, scope: string): Kept<T> {
  const empty: Kept<T> = { scope, values: {} };
  if (text === null || text.length > MAX_TEXT) return empty;
  try {
    const value = JSON.parse(text) as Kept<T>;
    if (value?.scope !== scope || typeof value.values !== "object" || value.values === null) return empty;
    const values: Kept<T>["values"] = Object.create(null);
    for (const [name, entry] of Object.entries(value.values)) {
      if (entry && typeof entry === "object" && typeof entry.expiresAt === "number" && "value" in entry) values[name] = entry;
    }
    return { scope, values };
  } catch {
    return empty;
  }
}
