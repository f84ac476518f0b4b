import { Args } from "@oclif/core";
import { removeProviderToken } from "../../domain/provider-token.js";
import { descriptorOf } from "../../domain/providers/catalog.js";
import { isProviderId, PROVIDER_IDS } from "../../domain/providers/descriptor.js";
import type { ConfigStore } from "../../ports/config-store.js";
import { TOKENS } from "../../ports/tokens.js";
import { QuotabarCommand, UsageError } from "../base-command.js";

export default class Logout extends QuotabarCommand {
  static override summary = "Remove a provider's stored token (providers[id].apiKey) from the config file.";
  static override description =
    "Only the apiKey field goes; the rest of the entry and of the file stay as they are. A token in an environment variable (e.g. COPILOT_API_TOKEN) is not touched.";
  static override examples = ["<%= config.bin %> logout copilot"];
  static override args = { provider: Args.string({ description: "Provider id", required: true }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Logout);
    const id = args.provider.trim().toLowerCase();
    if (!isProviderId(id)) throw new UsageError(`Unknown provider id: ${args.provider}`, `Valid ids: ${PROVIDER_IDS.join(", ")}`);
    const { name, credentialEnv } = descriptorOf(id);
    const store = (await this.container(flags)).resolve<ConfigStore>(TOKENS.ConfigStore);
    const removed = await removeProviderToken(store, id);
    this.log(removed ? `Removed the ${name} token from ${store.path()}.` : `No ${name} token is stored in ${store.path()}.`);
    const stillSet = credentialEnv.filter((variable) => (process.env[variable] ?? "").trim() !== "");
    if (stillSet.length > 0) this.logToStderr(`Note: ${stillSet.join(", ")} is still set in your environment; quotabar keeps using it.`);
  }
}
