import { Args } from "@oclif/core";
import type { KeepaliveReport } from "../../domain/session-keepalive.js";
import { DESCRIPTORS } from "../../providers/registry.js";
import { EXIT, QuotabarCommand, UsageError } from "../base-command.js";
import { providerId } from "../shared-flags.js";

export default class RefreshSession extends QuotabarCommand {
  static override summary = "Renew a provider's web session now (what `quotabar watch` does when a session is about to expire).";
  static override description =
    "Reads the session's cookies (the pasted header, else the browsers, else the cached header) and asks the service to renew it, whatever the keepalive's timing; a keepalive that gave up after 3 failures starts afresh. Exit code 0 when the session was renewed, 1 when it was not.";
  static override enableJsonFlag = true;
  static override examples = ["<%= config.bin %> refresh-session augment"];
  static override args = { provider: Args.string({ description: "Provider id", required: true }) };

  async run(): Promise<KeepaliveReport> {
    const { args, flags } = await this.parse(RefreshSession);
    const id = providerId(args.provider);
    const kept = DESCRIPTORS.filter((d) => d.keepsSession === true);
    const withSessions = `Providers with a web session to refresh: ${kept.map((d) => d.id).join(", ")}.`;
    if (!kept.some((d) => d.id === id)) {
      throw new UsageError(`${DESCRIPTORS.find((d) => d.id === id)?.name ?? id} has no web session to refresh`, withSessions);
    }
    const report = await (await this.core(flags)).keepalive.refresh(id);
    if (report.outcome === "renewed") this.log(`${report.name} session renewed.`);
    else {
      process.exitCode = EXIT.providerFailed;
      if (!this.jsonEnabled()) {
        process.stderr.write(`Error: ${report.error?.message ?? `${report.name} session was not renewed: ${report.detail}.`}\n`);
        if (report.error?.hint) process.stderr.write(`Hint: ${report.error.hint}\n`);
      }
    }
    return report;
  }
}
