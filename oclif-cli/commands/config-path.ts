import { QuotabarCommand } from "../base-command.js";

export default class ConfigPath extends QuotabarCommand {
  static override summary = "Print where the config file is (it may not exist yet).";

  async run(): Promise<void> {
    const { flags } = await this.parse(ConfigPath);
    this.log((await this.core(flags)).config.path());
  }
}
