import type { Environment } from "../../../ports/environment.js";
import type { ProcessRunner } from "../../../ports/process-runner.js";
import type { ChromiumBrowser } from "./chromium-browsers.js";

/** What asking the OS for a browser's "Safe Storage" password gave. */
export type SafeStorageAnswer =
  | { kind: "found"; password: string }
  /** No such item: the browser used the basic store or an empty password. */
  | { kind: "missing"; detail: string }
  /** The person or the OS refused (a dismissed prompt): the caller cools down. */
  | { kind: "denied"; detail: string };

/** Reads a Chromium browser's Safe Storage password; may prompt, so only a gate calls it. */
export interface SafeStorage {
  password(browser: ChromiumBrowser, signal?: AbortSignal): Promise<SafeStorageAnswer>;
}

/** A person may have to answer a prompt: give them time. */
const PROMPT_TIMEOUT_MS = 60_000;
const REFUSED = /dismiss|cancel|denied|not allowed|refused/i;
const LIBSECRET_SCHEMA = "chrome_libsecret_os_crypt_password_v2";

/** `secret-tool search` blocks: `[path]`, `label = …`, `secret = …`, `attribute.x = …`. */
export function secretsByLabel(output: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const block of output.split(/^\[/m)) {
    const label = /^label = (.*)$/m.exec(block)?.[1]?.trim();
    const secret = /^secret = (.*)$/m.exec(block)?.[1]?.trim();
    if (label && secret && !found.has(label)) found.set(label, secret);
  }
  return found;
}

/**
 * Linux: Chromium keeps its password under its own libsecret schema, which keyring libraries
 * cannot read (credentials.md section 1.5 and 9.4), so `secret-tool` (libsecret-tools) asks the
 * Secret Service: by the `application` attribute, then by the item's label; KWallet through
 * `kwallet-query`. The secret comes back on stdout; nothing secret is ever in the arguments.
 */
export class LibsecretSafeStorage implements SafeStorage {
  constructor(
    private readonly processes: ProcessRunner,
    private readonly env: Environment,
  ) {}

  async password(browser: ChromiumBrowser, signal?: AbortSignal): Promise<SafeStorageAnswer> {
    const item = browser.libsecret;
    if (!item) return { kind: "missing", detail: `no Secret Service item is known for ${browser.name}` };
    const options = { env: { ...this.env }, timeoutMs: PROMPT_TIMEOUT_MS, ...(signal ? { signal } : {}) };
    const tool = await this.processes.which("secret-tool");
    if (tool) {
      const lookup = await this.processes.run(tool, ["lookup", "application", item.application], options);
      const secret = lookup.stdout.trim();
      if (lookup.exitCode === 0 && secret !== "") return { kind: "found", password: secret };
      if (REFUSED.test(lookup.stderr)) return { kind: "denied", detail: "the Secret Service refused access" };
      const search = await this.processes.run(tool, ["search", "--all", "xdg:schema", LIBSECRET_SCHEMA], options);
      const byLabel = search.exitCode === 0 ? secretsByLabel(search.stdout).get(item.label) : undefined;
      if (byLabel) return { kind: "found", password: byLabel };
      if (REFUSED.test(search.stderr)) return { kind: "denied", detail: "the Secret Service refused access" };
    }
    const wallet = await this.processes.which("kwallet-query");
    if (wallet) {
      const folder = item.label.replace(/Safe Storage$/, "Keys");
      const read = await this.processes.run(wallet, ["--read-password", item.label, "--folder", folder, "kdewallet"], options);
      const secret = read.stdout.trim();
      if (read.exitCode === 0 && secret !== "" && !/not found|failed/i.test(secret)) return { kind: "found", password: secret };
    }
    if (!tool && !wallet) return { kind: "missing", detail: "neither secret-tool (libsecret-tools) nor kwallet-query is installed" };
    return { kind: "missing", detail: `no "${item.label}" item in the Secret Service` };
  }
}

/**
 * One generic password of the macOS Keychain through `security`: probed without `-w` first (no
 * prompt), read only when it exists. The secret comes back on stdout, never in the arguments.
 */
export async function keychainPassword(
  processes: ProcessRunner,
  env: Environment,
  item: { service: string; account?: string },
  security = "/usr/bin/security",
): Promise<SafeStorageAnswer> {
  const base = { env: { ...env } };
  const names = ["-s", item.service, ...(item.account ? ["-a", item.account] : [])];
  const probe = await processes.run(security, ["find-generic-password", ...names], { ...base, timeoutMs: 10_000 });
  if (probe.exitCode !== 0) return { kind: "missing", detail: `no "${item.service}" item in the Keychain` };
  const read = await processes.run(security, ["find-generic-password", "-w", ...names], { ...base, timeoutMs: PROMPT_TIMEOUT_MS });
  const secret = read.stdout.trim();
  if (read.exitCode === 0 && secret !== "") return { kind: "found", password: secret };
  if (/could not be found/i.test(read.stderr)) return { kind: "missing", detail: `no "${item.service}" item in the Keychain` };
  return { kind: "denied", detail: read.timedOut ? "the Keychain prompt was not answered" : "Keychain access was denied" };
}

/**
 * macOS: the Keychain's generic password, through `security`. Each known label is first probed
 * without `-w`, which prints attributes only and never prompts; only the first label that exists
 * is read, so a person sees at most one prompt per browser.
 */
export class KeychainSafeStorage implements SafeStorage {
  constructor(
    private readonly processes: ProcessRunner,
    private readonly env: Environment,
    private readonly security = "/usr/bin/security",
  ) {}

  async password(browser: ChromiumBrowser, signal?: AbortSignal): Promise<SafeStorageAnswer> {
    const base = { env: { ...this.env }, ...(signal ? { signal } : {}) };
    for (const { service, account } of browser.keychain ?? []) {
      const probe = await this.processes.run(this.security, ["find-generic-password", "-s", service, "-a", account], {
        ...base,
        timeoutMs: 10_000,
      });
      if (probe.exitCode !== 0) continue;
      const read = await this.processes.run(this.security, ["find-generic-password", "-w", "-s", service, "-a", account], {
        ...base,
        timeoutMs: PROMPT_TIMEOUT_MS,
      });
      const secret = read.stdout.trim();
      if (read.exitCode === 0 && secret !== "") return { kind: "found", password: secret };
      if (/could not be found/i.test(read.stderr)) continue;
      return { kind: "denied", detail: read.timedOut ? "the Keychain prompt was not answered" : "Keychain access was denied" };
    }
    return { kind: "missing", detail: `no "${browser.keychain?.[0]?.service ?? `${browser.name} Safe Storage`}" item in the Keychain` };
  }
}
