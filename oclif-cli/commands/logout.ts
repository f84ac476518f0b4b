import { Args } from "@oclif/core";
import { removeProviderToken } from "../../domain/provider-token.js";
import { descriptorOf } from "../../providers/registry.js";
import { QuotabarCommand } from "../base-command.js";
import { providerId } from "../shared-flags.js";

export default class Logout extends QuotabarCommand {
  static override summary = "Remove a provider's stored token (providers[id].apiKey) from the config file.";
  static override description =
    "Only the apiKey field goes (and the last snapshot kept for the provider); the rest of the entry and of the file stay as they are. A token in an environment variable (e.g. COPILOT_API_TOKEN) is not touched.";
  static override examples = ["<%= config.bin %> logout copilot"];
  static override args = { provider: Args.string({ description: "Provider id", required: true }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Logout);
    const id = providerId(args.provider);
    const { name, credentialEnv } = descriptorOf(id);
    const core = await this.core(flags);
    const store = core.config;
    const removed = await removeProviderToken(store, id);
    await core.forget([id]); // its last snapshot goes with the key
    this.log(removed ? `Removed the ${name} token from ${store.path()}.` : `No ${name} token is stored in ${store.path()}.`);
    const stillSet = credentialEnv.filter((variable) => (process.env[variable] ?? "").trim() !== "");
    if (stillSet.length > 0) this.logToStderr(`Note: ${stillSet.join(", ")} is still set in your environment; quotabar keeps using it.`);
  }
}
