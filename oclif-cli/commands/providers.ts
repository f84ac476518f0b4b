import { Flags } from "@oclif/core";
import type { ProviderListing } from "../../domain/usage-service.js";
import { QuotabarCommand } from "../base-command.js";
import { style } from "../render/style.js";

export default class Providers extends QuotabarCommand {
  static override summary = "List every provider, how it authenticates, and whether credentials were found.";
  static override enableJsonFlag = true;
  static override flags = { color: Flags.boolean({ allowNo: true, default: true, description: "Colour the output" }) };

  async run(): Promise<ProviderListing[]> {
    const { flags } = await this.parse(Providers);
    const rows = await (await this.core(flags)).usage.listProviders();
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
