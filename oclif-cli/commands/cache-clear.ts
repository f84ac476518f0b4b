import { providerFlag } from "../shared-flags.js";
import { QuotabarCommand } from "../base-command.js";

export default class CacheClear extends QuotabarCommand {
  static override summary =
    "Forget what was kept between runs: the last good snapshots, the readings history and the events already told, status-page polls, what providers learnt (tokens, ids, limits) and the cookie headers taken from browsers.";
  static override description =
    "quotabar keeps each provider's last good snapshot (served, marked stale, when a fetch fails with the same credential), its recent readings (`quotabar history`) and the events it told, the last status-page poll, and in the secret store the cookie headers it took from your browsers and the tokens providers minted. This removes them: every provider's, or the ones given with -p. Your config and keys are not touched.";
  static override examples = ["<%= config.bin %> cache clear", "<%= config.bin %> cache clear -p warp"];
  static override flags = {
    provider: providerFlag("every provider"),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(CacheClear);
    const forgotten = await (await this.core(flags)).forget(flags.provider ?? []);
    this.log(
      flags.provider
        ? `Forgot what was kept for ${forgotten.join(", ")}.`
        : "Forgot every kept snapshot, status poll, token and cookie header.",
    );
  }
}
