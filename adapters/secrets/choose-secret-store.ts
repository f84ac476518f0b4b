import { dirname, join } from "node:path";
import type { SecretStore } from "../../ports/browser-credentials.js";
import type { Environment } from "../../ports/environment.js";
import { FileSecretStore } from "./file-secret-store.js";
import { KeyringSecretStore } from "./keyring-secret-store.js";
import { MemorySecretStore } from "./memory-secret-store.js";
import { ScopedSecretStore } from "./scoped-secret-store.js";
import { optionalAddonInstalled } from "../optional-addon.js";
import { secretServiceReachable } from "./secret-service-probe.js";

const CHOICES = ["auto", "keyring", "file", "memory"] as const;
type Choice = (typeof CHOICES)[number];

/** QUOTABAR_SECRET_STORE holds something else than the choices: a usage error (exit 2). */
export class SecretStoreChoiceError extends Error {
  override name = "SecretStoreChoiceError";
}

/** What QUOTABAR_SECRET_STORE asks for (`auto` when unset); throws on anything else. */
export function secretStoreChoice(env: Environment): Choice {
  const given = (env.QUOTABAR_SECRET_STORE ?? "").trim().toLowerCase() || "auto";
  if ((CHOICES as readonly string[]).includes(given)) return given as Choice;
  throw new SecretStoreChoiceError(`QUOTABAR_SECRET_STORE must be one of ${CHOICES.join(", ")}, not ${JSON.stringify(given)}`);
}

/**
 * Where quotabar keeps what it takes from browsers and what providers mint (cookie headers, access
 * tokens), always apart per config directory:
 * - `keyring`: the OS store (the Keychain; on Linux the Secret Service only, never the kernel
 *   keyring), each entry named after the config directory;
 * - `file`: `secrets.json` (mode 0600) beside the config file;
 * - `memory`: the life of the process (the tests; `quotabar demo`);
 * - `auto` (the default): the Keychain on macOS; on Linux the Secret Service when one answers on the
 *   session bus, else the file; the file too where the optional keyring addon is not installed.
 * The choice is made on first use, so a run that keeps nothing asks nothing.
 */
export function chooseSecretStore(env: Environment, configPath: string, platform: NodeJS.Platform = process.platform): SecretStore {
  const choice = secretStoreChoice(env);
  if (choice === "memory") return new MemorySecretStore();
  const configDir = dirname(configPath);
  const file = () => new FileSecretStore(join(configDir, "secrets.json"));
  if (choice === "file") return file();
  const keyring = () => new ScopedSecretStore(new KeyringSecretStore(), configDir);
  return lazily(async () => {
    // an install without the optional keyring addon keeps its secrets in the file, unless told otherwise
    if (choice === "auto" && !optionalAddonInstalled("@napi-rs/keyring")) return file();
    if (platform === "darwin") return keyring();
    if (platform !== "linux") return choice === "keyring" ? keyring() : file();
    if (await secretServiceReachable(env)) return keyring();
    if (choice === "auto") return file();
    throw new Error(
      "QUOTABAR_SECRET_STORE=keyring, but no Secret Service answers on the session bus (is gnome-keyring or KWallet running?)",
    );
  });
}

function lazily(choose: () => Promise<SecretStore>): SecretStore {
  let chosen: Promise<SecretStore> | undefined;
  const store = () => (chosen ??= choose());
  return {
    get: async (service, account) => (await store()).get(service, account),
    set: async (service, account, secret) => (await store()).set(service, account, secret),
    delete: async (service, account) => (await store()).delete(service, account),
  };
}
