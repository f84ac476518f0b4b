import type { ProviderListing } from "../../domain/usage-service.js";
import { colorFlag } from "../shared-flags.js";
import { QuotabarCommand } from "../base-command.js";
import { providersTable } from "../render/providers-table.js";
import { style } from "../render/style.js";

export default class Providers extends QuotabarCommand {
  static override summary = "List every provider, how it authenticates, and whether credentials were found.";
  static override enableJsonFlag = true;
  static override flags = { color: colorFlag() };

  async run(): Promise<ProviderListing[]> {
    const { flags } = await this.parse(Providers);
    const rows = await (await this.core(flags)).usage.listProviders();
    for (const line of providersTable(rows, style(this.color(flags.color)))) this.log(line);
    return rows;
  }
}
