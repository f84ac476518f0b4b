import { Args, Flags } from "@oclif/core";
import { descriptorOf } from "../../providers/registry.js";
import { QuotabarCommand, UsageError } from "../base-command.js";
import { accountFlag, accountOf, pasteCommand, providerId } from "../shared-flags.js";
import { readSecret } from "../read-secret.js";
import { saveProviderToken } from "../../domain/provider-token.js";

/** Line breaks (Unicode's too), NUL and every other control character: no key holds one. */
function hasControlCharacter(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029) return true;
  }
  return false;
}

/** The pasted text, trimmed, with a shell command's continuations (backslash, line break) joined: "Copy as cURL" pastes span lines. */
export function oneLineKey(pasted: string): string {
  return pasted
    .split(/\\\r?\n/)
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .join(" ");
}

export default class ConfigSetKey extends QuotabarCommand {
  static override summary = "Store a provider's API key in the config file (read from stdin, never from the command line).";
  static override examples = [
    `${pasteCommand()} | <%= config.bin %> config set-key openrouter --stdin`,
    "<%= config.bin %> config set-key warp --stdin < ~/warp-key.txt",
    "<%= config.bin %> config set-key openrouter --account work --stdin < ~/work-key.txt",
  ];
  static override args = { id: Args.string({ description: "Provider id (one that takes an API key)", required: true }) };
  static override flags = {
    stdin: Flags.boolean({ description: "Read the key from standard input (required)", required: true }),
    account: accountFlag(),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ConfigSetKey);
    const id = providerId(args.id);
    const account = accountOf(id, flags.account);
    const { name, auth, settings } = descriptorOf(id);
    if (!settings?.some((setting) => setting.field === "apiKey")) {
      throw new UsageError(`${name} takes no API key`, `${name} authenticates with: ${auth.join("; ")}.`);
    }
    const pipeIt = `Pipe the key in: ${pasteCommand()} | quotabar config set-key ${id} --stdin`;
    const key = oneLineKey(await readSecret(process.stdin, process.stderr, `Paste the ${descriptorOf(id).name} key and press Enter: `));
    if (key === "") throw new UsageError("No key on standard input", pipeIt);
    if (hasControlCharacter(key)) {
      throw new UsageError(
        "The key on standard input spans several lines or holds a control character (such as NUL); nothing was stored",
        `A key is one line of text. ${pipeIt}`,
      );
    }
    const store = (await this.core(flags)).config;
    await saveProviderToken(store, account, key);
    const whose = account.account === null ? descriptorOf(id).name : `${descriptorOf(id).name} · ${account.account}`;
    this.log(`Saved the ${whose} key to ${store.path()} (mode 0600).`);
  }
}
