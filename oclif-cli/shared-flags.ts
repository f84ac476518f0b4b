import { Flags } from "@oclif/core";
import { ACCOUNT_LABEL_RULE, accountKey, isAccountLabel, type AccountKey } from "../domain/account.js";
import { UnknownAccountError, UnknownProviderError } from "../domain/unknown-provider.js";
import { PROVIDER_IDS } from "../providers/registry.js";

/**
 * `-p <id>`, repeatable; `whenOmitted` says what no -p means for this command. The ids are checked by
 * `providerIds` (QuotabarCommand.core does it), not by oclif: one wording for an unknown id everywhere.
 */
export const providerFlag = (whenOmitted: string) =>
  Flags.string({
    char: "p",
    description: `Provider id (repeatable; one of ${PROVIDER_IDS.join(", ")}), every account of it, or <id>:<account> for one; default: ${whenOmitted}`,
    multiple: true,
    helpValue: "<id>",
  });

/**
 * Given ids (`claude`, or `claude:work` for one account) as the registry spells them (the id trimmed,
 * lower case; the account as written); an UnknownProviderError naming every unknown id, an
 * UnknownAccountError for a label no account can have (never quoted: it may hold anything).
 */
export function providerIds(given: readonly string[]): string[] {
  const refs = given.map((text) => {
    const at = text.indexOf(":");
    const id = (at < 0 ? text : text.slice(0, at)).trim().toLowerCase();
    return { id, account: at < 0 ? null : text.slice(at + 1).trim() };
  });
  const unknown = given.filter((_, i) => !PROVIDER_IDS.includes(refs[i]?.id as string));
  if (unknown.length > 0) throw new UnknownProviderError(unknown, PROVIDER_IDS);
  const badLabels = refs.filter((ref) => ref.account !== null && !isAccountLabel(ref.account));
  if (badLabels.length > 0)
    throw new UnknownAccountError(
      badLabels.map((ref) => `${ref.id}:(not an account label)`),
      `An account is ${ACCOUNT_LABEL_RULE}.`,
    );
  return refs.map((ref) => (ref.account === null ? ref.id : `${ref.id}:${ref.account}`));
}

/** One provider id argument (`logout <id>`, `login <id>`, ...), checked the same way; an account goes in `--account` (where a command takes one). */
export function providerId(given: string): string {
  const ref = providerIds([given])[0] as string;
  if (ref.includes(":"))
    throw new UnknownAccountError([ref], "Give the provider id alone here; `config set-key` and `logout` take --account <label>.");
  return ref;
}

/** One `<id>` or `<id>:<account>` argument (`cookies <id>:<account>`), checked the same way. */
export const providerRef = (given: string): string => providerIds([given])[0] as string;

/** Colour only for a terminal; `--no-color`, NO_COLOR and a pipe turn it off. */
export const colorFlag = () =>
  Flags.boolean({ description: "Colour the text output, even into a pipe (default: in a terminal without NO_COLOR)", allowNo: true });

/** How to paste the clipboard into a pipe on this platform (and Linux display server), for hints and examples. */
export function pasteCommand(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  if (platform === "darwin") return "pbpaste";
  return env.WAYLAND_DISPLAY ? "wl-paste" : "xclip -o -selection clipboard";
}

/** `--account <label>`: which of a provider's accounts (config `account`); default: the default account. */
export const accountFlag = () =>
  Flags.string({
    description: `The account (config "account": ${ACCOUNT_LABEL_RULE}); default: the provider's default account`,
    helpValue: "<label>",
  });

/** The account of `<id>` and `--account`, a label checked (never quoted when it is not one). */
export function accountOf(id: string, label: string | undefined): AccountKey {
  if (label === undefined) return accountKey(id);
  if (!isAccountLabel(label)) throw new UnknownAccountError([`${id}:(not an account label)`], `An account is ${ACCOUNT_LABEL_RULE}.`);
  return accountKey(id, label);
}
