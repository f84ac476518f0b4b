import { Flags } from "@oclif/core";
import type { ProviderHistory } from "../../ports/usage-history.js";
import { QuotabarCommand, UsageError } from "../base-command.js";
import { renderHistoryText } from "../render/history-text.js";
import { style } from "../render/style.js";
import { colorFlag, providerFlag } from "../shared-flags.js";

/** `quotabar history --json`. */
export interface HistoryDocument {
  version: 1;
  generatedAt: string;
  providers: ProviderHistory[];
}

export default class History extends QuotabarCommand {
  static override summary = "Show the readings kept of each meter: its current window as a sparkline, and its peak per day.";
  static override description =
    "Every fresh reading (each `quotabar` run, each `quotabar watch` refresh) is kept per provider and meter in the cache directory, for 35 days (at most 2,000 readings per meter, ~100 KB per provider); the pace of a meter comes from them after a burst. Days are UTC. With --json, the readings themselves: time, used percent, used, limit, reset time, and a segment number that changes with each new window. No network.";
  static override enableJsonFlag = true;
  static override examples = ["<%= config.bin %> history", "<%= config.bin %> history -p zai --since 2026-11-20 --json"];
  static override flags = {
    provider: providerFlag("every provider with readings kept"),
    since: Flags.string({ description: "Only readings from this day (YYYY-MM-DD, UTC) or time (ISO 8601) on", helpValue: "<date>" }),
    color: colorFlag(),
  };

  async run(): Promise<HistoryDocument> {
    const { flags } = await this.parse(History);
    const since = flags.since === undefined ? undefined : parseSince(flags.since);
    const core = await this.core(flags);
    // a config that cannot be read is a usage error here too (exit 2), though the readings are in the cache
    await core.config.load();
    const providers = await core.history({ ...(flags.provider ? { providers: flags.provider } : {}), ...(since ? { since } : {}) });
    const now = core.clock.now();
    if (!this.jsonEnabled()) {
      const name = (id: string) => core.catalog.descriptor(id)?.name ?? id;
      this.log(renderHistoryText(providers, name, style(this.color(flags.color)), now));
    }
    return { version: 1, generatedAt: now.toISOString(), providers };
  }
}

/** A day (midnight UTC) or an ISO 8601 time with its offset. */
export function parseSince(text: string): Date {
  const trimmed = text.trim();
  const ms = /^\d{4}-\d\d-\d\d$/.test(trimmed)
    ? Date.parse(`${trimmed}T00:00:00Z`)
    : /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i.test(trimmed)
      ? Date.parse(trimmed)
      : NaN;
  if (!Number.isFinite(ms))
    throw new UsageError(
      `--since must be a date as YYYY-MM-DD or an ISO 8601 time, not "${text}".`,
      "For example: quotabar history --since 2026-11-20",
    );
  return new Date(ms);
}
