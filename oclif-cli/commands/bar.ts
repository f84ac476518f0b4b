import { Flags } from "@oclif/core";
import { QuotabarCommand, UsageError } from "../base-command.js";
import { DEFAULT_MAX_AGE, maxAgeMs, runBar } from "../bar/run-bar.js";
import { BAR_METERS } from "../render/bar/bar-view.js";
import { BAR_FORMAT_NAMES, type BarFormat } from "../render/bar/formats.js";
import { providerFlag, providerIds } from "../shared-flags.js";

export default class Bar extends QuotabarCommand {
  static override summary =
    "One status-bar line (waybar, i3blocks, polybar, tmux, SwiftBar, xbar) from the kept usage, refreshed when older than --max-age.";
  static override description =
    "Made to be run every few seconds by a status bar: it shows what the last fetch kept and refreshes only the providers whose answer is older than --max-age (default 5m), so most runs make no request. Runs that start together never refresh one provider twice (they wait for each other's lock and read the result). --format waybar prints one JSON line (text, alt, tooltip, class, percentage); i3blocks three lines (full text, short text, colour) and exit code 33 when a meter is critical; polybar and tmux one line with colour tags; swiftbar and xbar a plugin's menu; text plain lines. The class (and colour) is critical from the highest of the config's notify thresholds, warning from the lowest (default 80 and 95), stale when a provider shows its last good numbers after a failure, error when it has none.";
  static override examples = [
    "<%= config.bin %> bar --format waybar",
    "<%= config.bin %> bar --format tmux -p zai -p warp",
    "<%= config.bin %> bar --format swiftbar --max-age 1m --meter primary",
  ];
  static override flags = {
    format: Flags.string({ description: "The status bar's format", options: BAR_FORMAT_NAMES, default: "text" }),
    provider: providerFlag("the enabled providers"),
    "max-age": Flags.string({
      description: "Refresh a provider whose kept answer is older than this: 30s, 5m, 1h (0: always; at most 7d)",
      default: DEFAULT_MAX_AGE,
      helpValue: "<time>",
    }),
    meter: Flags.string({
      description: "Which meter of each provider the bar shows: its fullest (auto), its primary or its secondary",
      options: [...BAR_METERS],
      default: "auto",
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Bar);
    const maxAge = maxAgeMs(flags["max-age"]);
    if (maxAge === null)
      throw new UsageError(
        `Invalid --max-age: ${flags["max-age"]}`,
        "Give a time up to 7d, such as 30s, 5m or 1h (0 refreshes every time).",
      );
    const result = await runBar(
      {
        format: flags.format as BarFormat,
        providers: flags.provider ? [...new Set(providerIds(flags.provider))] : null,
        maxAgeMs: maxAge,
        meter: flags.meter as (typeof BAR_METERS)[number],
        config: flags.config,
      },
      { env: process.env, now: () => new Date(), core: () => this.core(flags) },
    );
    this.log(result.output);
    process.exitCode = result.exitCode;
  }
}
