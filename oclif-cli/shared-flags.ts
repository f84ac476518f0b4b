import { Flags } from "@oclif/core";
import { UnknownProviderError } from "../domain/unknown-provider.js";
import { PROVIDER_IDS } from "../providers/registry.js";

/**
 * `-p <id>`, repeatable; `whenOmitted` says what no -p means for this command. The ids are checked by
 * `providerIds` (QuotabarCommand.core does it), not by oclif: one wording for an unknown id everywhere.
 */
export const providerFlag = (whenOmitted: string) =>
  Flags.string({
    char: "p",
    description: `Provider id (repeatable; one of ${PROVIDER_IDS.join(", ")}); default: ${whenOmitted}`,
    multiple: true,
    helpValue: "<id>",
  });

/** Given ids as the registry spells them (trimmed, lower case); an UnknownProviderError naming every unknown one. */
export function providerIds(given: readonly string[]): string[] {
  const ids = given.map((id) => id.trim().toLowerCase());
  const unknown = given.filter((_, i) => !PROVIDER_IDS.includes(ids[i] as string));
  if (unknown.length > 0) throw new UnknownProviderError(unknown, PROVIDER_IDS);
  return ids;
}

/** One provider id argument (`logout <id>`, `cookies <id>`, ...), checked the same way. */
export const providerId = (given: string): string => providerIds([given])[0] as string;

/** Colour only for a terminal; `--no-color`, NO_COLOR and a pipe turn it off. */
export const colorFlag = () =>
  Flags.boolean({ description: "Colour the text output, even into a pipe (default: in a terminal without NO_COLOR)", allowNo: true });

/** How to paste the clipboard into a pipe on this platform (and Linux display server), for hints and examples. */
export function pasteCommand(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  if (platform === "darwin") return "pbpaste";
  return env.WAYLAND_DISPLAY ? "wl-paste" : "xclip -o -selection clipboard";
}
