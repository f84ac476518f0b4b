import { redact } from "../../domain/redact.js";
import { QuotabarCommand } from "../base-command.js";

/** Field names whose values are secrets, wherever they sit (headers included). */
const SECRET_FIELD = /key|token|secret|passw|cookie|authoriz|credential|session|bearer|signature|private|(^|[^a-z])auth([^a-z]|$)/i;
const COOKIE_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `a=b; c=d`: a Cookie header without its name. */
function isCookieHeader(text: string): boolean {
  const pairs = text.split(";").map((pair) => pair.trim());
  if (pairs.at(-1) === "") pairs.pop();
  return (
    pairs.length > 0 &&
    pairs.every((pair) => {
      const eq = pair.indexOf("=");
      return eq > 0 && COOKIE_NAME.test(pair.slice(0, eq)) && !/\s/.test(pair.slice(eq + 1));
    })
  );
}

/** Token shapes are redact()'s own (Bearer/token prefixes, known key prefixes, JWTs, credential headers): it changes what it recognises. */
function looksSecret(text: string): boolean {
  return redact(text) !== text || isCookieHeader(text);
}

/**
 * Every secret replaced by a mask that keeps only its length: any string under a secret-named
 * field (at any depth below it), and any string shaped like a token or a cookie header anywhere.
 * Recursion is bounded by the config's own depth limit, checked when it was loaded.
 */
export function maskSecrets(value: unknown, underSecretField = false): unknown {
  if (typeof value === "string")
    return value !== "" && (underSecretField || looksSecret(value)) ? `•••••••• (${value.length} chars)` : value;
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, underSecretField));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecrets(v, underSecretField || SECRET_FIELD.test(k))]));
  }
  return value;
}

export default class ConfigShow extends QuotabarCommand {
  static override summary = "Print the config file with secrets masked.";
  static override enableJsonFlag = true;

  async run(): Promise<unknown> {
    const { flags } = await this.parse(ConfigShow);
    const store = (await this.core(flags)).config;
    const masked = maskSecrets(await store.load());
    if (!this.jsonEnabled()) {
      process.stderr.write(`# ${store.path()}\n`);
      this.log(JSON.stringify(masked, null, 2));
    }
    return masked;
  }
}
