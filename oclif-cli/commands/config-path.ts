import { TOKENS } from "../../ports/tokens.js";
import type { ConfigStore } from "../../ports/config-store.js";
import { QuotabarCommand } from "../base-command.js";

export default class ConfigPath extends QuotabarCommand {
  static override summary = "Print where the config file is (it may not exist yet).";

  async run(): Promise<void> {
    const { flags } = await this.parse(ConfigPath);
    this.log((await this.container(flags)).resolve<ConfigStore>(TOKENS.ConfigStore).path());
  }
}
