import { Flags } from "@oclif/core";
import type { ProviderDescriptor } from "../../domain/providers/descriptor.js";
import { entryOf } from "../../domain/config-entry.js";
import type { UsageService } from "../../domain/usage-service.js";
import type { ConfigStore } from "../../ports/config-store.js";
import type { ProviderRegistry } from "../../ports/fetch-strategy.js";
import { TOKENS } from "../../ports/tokens.js";
import { QuotabarCommand } from "../base-command.js";
import { style } from "../render/style.js";

interface ProviderRow {
  id: string;
  name: string;
  auth: readonly string[];
  credentialsFound: boolean;
  enabled: boolean;
  supported: boolean;
  unofficial: boolean;
  dashboardUrl: string;
  status: ProviderDescriptor["status"];
  credentialEnv: readonly string[];
}

export default class Providers extends QuotabarCommand {
  static override summary = "List every provider, how it authenticates, and whether credentials were found.";
  static override enableJsonFlag = true;
  static override flags = { color: Flags.boolean({ allowNo: true, default: true, description: "Colour the output" }) };

  async run(): Promise<ProviderRow[]> {
    const { flags } = await this.parse(Providers);
    const container = await this.container(flags);
    const service = container.resolve<UsageService>(TOKENS.UsageService);
    const config = await container.resolve<ConfigStore>(TOKENS.ConfigStore).load();
    const plugins = container.resolve<ProviderRegistry>(TOKENS.ProviderRegistry).all();
    const rows = await Promise.all(
      plugins.map(async ({ descriptor, strategies }) => {
        const entry = entryOf(config, descriptor.id);
        const plugin = { descriptor, strategies };
        return {
          id: descriptor.id,
          name: descriptor.name,
          auth: descriptor.auth,
          credentialsFound: await service.credentialsFound(plugin, entry),
          enabled: await service.isEnabled(plugin, entry),
          supported: strategies.length > 0,
          unofficial: descriptor.unofficial === true,
          dashboardUrl: descriptor.dashboardUrl,
          status: descriptor.status,
          credentialEnv: descriptor.credentialEnv,
        };
      }),
    );
    const s = style(this.color(flags.color));
    const idWidth = Math.max(...rows.map((r) => r.id.length));
    const nameWidth = Math.max(...rows.map((r) => r.name.length));
    this.log(s.bold(`${"ID".padEnd(idWidth)}  ${"NAME".padEnd(nameWidth)}  ${"CREDENTIALS".padEnd(11)}  ${"ENABLED".padEnd(7)}  AUTH`));
    for (const r of rows) {
      const found = !r.supported ? s.dim("not yet") : r.credentialsFound ? s.green("found") : s.dim("none");
      const enabled = r.enabled ? s.green("yes") : s.dim("no");
      this.log(
        `${r.id.padEnd(idWidth)}  ${r.name.padEnd(nameWidth)}  ${pad(found, r.supported ? (r.credentialsFound ? 5 : 4) : 7, 11)}  ${pad(enabled, r.enabled ? 3 : 2, 7)}  ${r.auth.join("; ")}${r.credentialEnv.length ? s.dim(` (${r.credentialEnv.join(", ")})`) : ""}`,
      );
    }
    return rows;
  }
}

/** padEnd that ignores colour codes. */
function pad(text: string, visible: number, width: number): string {
  return text + " ".repeat(Math.max(0, width - visible));
}
