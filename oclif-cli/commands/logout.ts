import { Args } from "@oclif/core";
import { removeProviderToken } from "../../domain/provider-token.js";
import { descriptorOf } from "../../providers/registry.js";
import { QuotabarCommand } from "../base-command.js";
import { accountFlag, accountOf, providerId } from "../shared-flags.js";

export default class Logout extends QuotabarCommand {
  static override summary = "Remove a provider's stored token (providers[id].apiKey) from the config file.";
  static override description =
    "Only the apiKey field goes (and the last snapshot kept for the provider); the rest of the entry and of the file stay as they are. A token in an environment variable (e.g. COPILOT_API_TOKEN) is not touched.";
  static override examples = ["<%= config.bin %> logout copilot", "<%= config.bin %> logout openrouter --account work"];
  static override args = { provider: Args.string({ description: "Provider id", required: true }) };
  static override flags = { account: accountFlag() };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Logout);
    const id = providerId(args.provider);
    const { name, credentialEnv } = descriptorOf(id);
    const core = await this.core(flags);
    const store = core.config;
    const account = accountOf(id, flags.account);
    const removed = await removeProviderToken(store, account);
    await core.forget([account]); // its last snapshot goes with the key (that account's only)
    const whose = account.account === null ? name : `${name} · ${account.account}`;
    this.log(removed ? `Removed the ${whose} token from ${store.path()}.` : `No ${whose} token is stored in ${store.path()}.`);
    // the variables are the default account's
    if (account.account !== null) return;
    const stillSet = credentialEnv.filter((variable) => (process.env[variable] ?? "").trim() !== "");
    if (stillSet.length > 0) this.logToStderr(`Note: ${stillSet.join(", ")} is still set in your environment; quotabar keeps using it.`);
  }
}
