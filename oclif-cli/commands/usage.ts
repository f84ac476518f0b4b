import { Flags, ux } from "@oclif/core";
import type { UsageDocument } from "../../domain/usage-document.js";
import { providerFlag, colorFlag } from "../shared-flags.js";
import { EXIT, QuotabarCommand } from "../base-command.js";
import { style } from "../render/style.js";
import { renderUsageText } from "../render/usage-text.js";
import { SOURCE_MODES, TIMEOUT_SECONDS } from "../usage-flag-values.js";

/** Shared by `usage` and `demo`: the flags that shape one usage fetch. */
export const usageFlags = {
  provider: providerFlag("the enabled providers"),
  status: Flags.boolean({ description: "Add each provider's status page (incidents) to the output" }),
  timeout: Flags.integer({
    description: "Seconds each provider may take (default: config timeoutSeconds, else 15)",
    ...TIMEOUT_SECONDS,
    helpValue: "<s>",
  }),
  color: colorFlag(),
};

export default class Usage extends QuotabarCommand {
  static override summary = "Show how much of each quota is used, the plan, and when it resets.";
  static override description =
    "With -p, the given providers; otherwise the providers enabled in the config, or, with no config, every provider whose credentials are found (env vars, local files, installed CLIs).\n\nExit codes: 0 every provider answered, 1 the document was printed but a provider failed, 2 usage error, 3 internal error.";
  static override enableJsonFlag = true;
  static override examples = [
    "<%= config.bin %> -p copilot",
    "<%= config.bin %> -p openrouter -p warp --json",
    "<%= config.bin %> --status --timeout 5",
  ];
  static override flags = {
    ...usageFlags,
    source: Flags.string({ description: "Force a source mode (providers with several sources)", options: [...SOURCE_MODES] }),
  };

  async run(): Promise<UsageDocument> {
    const { flags } = await this.parse(Usage);
    const service = (await this.core(flags)).usage;
    const doc = await withSpinner(!this.jsonEnabled(), "Fetching usage", () =>
      service.usage({
        ...(flags.provider ? { providers: flags.provider } : {}),
        ...(flags.timeout ? { timeoutMs: flags.timeout * 1000 } : {}),
        ...(flags.source ? { source: flags.source } : {}),
        status: flags.status,
      }),
    );
    reportUsage(this, doc, this.color(flags.color));
    return doc;
  }
}

/** Text unless --json (oclif prints the returned document then); exit 1 when a provider failed. */
export function reportUsage(command: QuotabarCommand, doc: UsageDocument, color: boolean): void {
  if (doc.providers.some((p) => !p.ok)) process.exitCode = EXIT.providerFailed;
  // rendered only when shown: the text's dates and numbers load the ICU locale data (~8 MiB)
  if (!command.jsonEnabled()) command.log(renderUsageText(doc, style(color), new Date()));
}

/** A spinner on stderr while slow work runs, only for people (a TTY), never in JSON mode. */
export async function withSpinner<T>(enabled: boolean, label: string, work: () => Promise<T>): Promise<T> {
  const show = enabled && process.stderr.isTTY === true;
  if (show) ux.action.start(label, undefined, { stdout: false });
  try {
    return await work();
  } finally {
    if (show) ux.action.stop("done");
  }
}
