import type { BrowserAccess } from "./browser-credentials.js";
import type { ProviderConfigEntry } from "./config-store.js";
import type { Environment } from "./environment.js";
import type { ProviderHttp } from "./http-client.js";
import type { KeptValues } from "./kept-values.js";
import type { ProcessRunner } from "./process-runner.js";

/** What finding a credential may look at: local things only, never the network. */
export interface CredentialContext {
  env: Environment;
  entry: ProviderConfigEntry;
  now: () => Date;
  /** Source mode forced by the caller (`--source`), else the entry's `source`, else auto. */
  sourceMode: string;
  /** Local programs: find a vendor CLI, run it, probe processes and ports (no shell, killed on timeout). */
  processes: ProcessRunner;
  /** The user's browsers (cookies, Local Storage) and the secret store caching what worked; reached through the kit. */
  browsers: BrowserAccess;
}

/** What one provider fetch may use: the above plus its scoped HTTP client (signal, budget, secrets). */
export interface FetchContext extends CredentialContext {
  http: ProviderHttp;
  signal: AbortSignal;
  /** The budget of this provider's fetch, for strategies that split it (a best-effort second call). */
  timeoutMs: number;
  /** What this provider learnt in an earlier run with this credential (a token, an id), to save a round trip. */
  kept: KeptValues;
}
