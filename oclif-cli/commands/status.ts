import type { StatusReport } from "../../ports/status-feed.js";
import { parseAccountRef } from "../../domain/account.js";
import { DESCRIPTORS } from "../../providers/registry.js";
import { providerFlag, colorFlag } from "../shared-flags.js";
import { EXIT, QuotabarCommand } from "../base-command.js";
import { renderStatusText } from "../render/status-text.js";
import { style } from "../render/style.js";
import { withSpinner } from "./usage.js";

export interface StatusDocument {
  version: 1;
  generatedAt: string;
  /** Config `status.enabled` (default true); when false nothing was requested. */
  enabled: boolean;
  intervalMinutes: number;
  providers: StatusReport[];
}

export default class Status extends QuotabarCommand {
  static override summary = "Show the status pages of the providers: indicator, open incidents, and the page to open.";
  static override description =
    "Statuspage-backed providers (GitHub Copilot, Factory) and Antigravity (Google Workspace incident feed) are polled, at most once per config status.intervalMinutes (default 5) across runs; the rest only have a link. Without -p: every provider with a status page.\n\nExit codes: 0 every polled page answered, 1 a page could not be read (the last known status is shown), 2 usage error.";
  static override enableJsonFlag = true;
  static override examples = ["<%= config.bin %> status", "<%= config.bin %> status -p copilot --json"];
  static override flags = {
    provider: providerFlag("every provider with a status page"),
    color: colorFlag(),
  };

  async run(): Promise<StatusDocument> {
    const { flags } = await this.parse(Status);
    const service = (await this.core(flags)).status;
    const settings = await service.settings();
    // a status page is the provider's: `-p claude:work` asks for claude's
    const ids = flags.provider
      ? [...new Set(flags.provider.map((ref) => parseAccountRef(ref).id))]
      : DESCRIPTORS.filter((d) => d.status.kind !== "none").map((d) => d.id);
    const reports = await withSpinner(!this.jsonEnabled(), "Asking the status pages", () =>
      Promise.all(ids.map((id) => service.report(id))),
    );
    if (reports.some((r) => r.error !== null)) process.exitCode = EXIT.providerFailed;
    this.log(renderStatusText(reports, settings, style(this.color(flags.color)), new Date()));
    return { version: 1, generatedAt: new Date().toISOString(), ...settings, providers: reports };
  }
}
