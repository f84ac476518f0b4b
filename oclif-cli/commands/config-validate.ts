import { redact } from "../../domain/redact.js";
import { PROVIDER_IDS } from "../../providers/registry.js";
import { QuotabarCommand } from "../base-command.js";

export default class ConfigValidate extends QuotabarCommand {
  static override summary = "Check the config file: JSON syntax (with line and column) and the known fields.";
  static override enableJsonFlag = true;

  async run(): Promise<{ path: string; valid: true; warnings: string[] }> {
    const { flags } = await this.parse(ConfigValidate);
    const store = (await this.core(flags)).config;
    const config = await store.load();
    const warnings = config.providers
      .filter((e) => !PROVIDER_IDS.includes(e.id))
      // quoted as JSON (no raw control characters) and redacted: a key pasted into the id stays hidden
      .map((e) => `unknown provider id ${JSON.stringify(redact(e.id))} (kept, ignored)`);
    for (const warning of warnings) this.logToStderr(`Warning: ${warning}`);
    this.log(`${store.path()}: valid`);
    return { path: store.path(), valid: true, warnings };
  }
}
