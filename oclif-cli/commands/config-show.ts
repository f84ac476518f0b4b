import { QuotabarCommand } from "../base-command.js";

const SECRET_FIELD = /key|token|secret|password|cookie/i;

/** Every secret-looking string replaced by a mask that keeps only its length. */
export function maskSecrets(value: unknown, field = ""): unknown {
  if (typeof value === "string") return SECRET_FIELD.test(field) && value !== "" ? `•••••••• (${value.length} chars)` : value;
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, field));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecrets(v, SECRET_FIELD.test(k) ? k : "")]));
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
