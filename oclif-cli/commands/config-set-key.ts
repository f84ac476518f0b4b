import { Args, Flags } from "@oclif/core";
import { descriptorOf, PROVIDER_IDS } from "../../providers/registry.js";
import { QuotabarCommand, UsageError } from "../base-command.js";
import { readSecret } from "../read-secret.js";
import { saveProviderToken } from "../../domain/provider-token.js";

export default class ConfigSetKey extends QuotabarCommand {
  static override summary = "Store a provider's API key in the config file (read from stdin, never from the command line).";
  static override examples = [
    "pbpaste | <%= config.bin %> config set-key openrouter --stdin",
    "<%= config.bin %> config set-key warp --stdin < ~/warp-key.txt",
  ];
  static override args = { id: Args.string({ description: "Provider id", required: true, options: [...PROVIDER_IDS] }) };
  static override flags = { stdin: Flags.boolean({ description: "Read the key from standard input (required)", required: true }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ConfigSetKey);
    const id = args.id;
    const key = (await readSecret(process.stdin, process.stderr, `Paste the ${descriptorOf(id).name} key and press Enter: `)).trim();
    if (key === "") throw new UsageError("No key on standard input", `Pipe the key in: pbpaste | quotabar config set-key ${id} --stdin`);
    const store = (await this.core(flags)).config;
    await saveProviderToken(store, id, key);
    this.log(`Saved the ${descriptorOf(id).name} key to ${store.path()} (mode 0600).`);
  }
}
