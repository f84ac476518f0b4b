import { resolveCacheDir } from "../../adapters/config/config-path.js";
import { FileTextStore } from "../../adapters/cache/file-text-store.js";
import type { Environment } from "../../ports/environment.js";
import type { TextStore } from "../../ports/text-store.js";

/**
 * What a provider keeps between runs for its own sake (an index of log files it has read), in
 * quotabar's cache dir: $XDG_CACHE_HOME/quotabar when absolute, else ~/.cache/quotabar. Key
 * `cost-logs/vertexai` is the file `<dir>/cost-logs/vertexai.json`, written atomically, owner-only.
 * A cache is rebuilt when unreadable, never trusted: check what you read. `durable: false` for
 * what is rebuilt from its sources anyway: written without waiting on the disk (no fsync).
 */
export function providerCache(env: Environment, { durable = true }: { durable?: boolean } = {}): TextStore {
  return new FileTextStore(resolveCacheDir(env), undefined, { durable });
}
