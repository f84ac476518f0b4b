import { Flags } from "@oclif/core";
import { PROVIDER_IDS } from "../providers/registry.js";

/** `-p <id>`, repeatable, checked against the registry; `whenOmitted` says what no -p means for this command. */
export const providerFlag = (whenOmitted: string) =>
  Flags.string({
    char: "p",
    description: `Provider id (repeatable); default: ${whenOmitted}`,
    multiple: true,
    options: [...PROVIDER_IDS],
    helpValue: "<id>",
  });

/** Colour only for a terminal; `--no-color`, NO_COLOR and a pipe turn it off. */
export const colorFlag = () =>
  Flags.boolean({ description: "Colour the text output (off for NO_COLOR or a non-TTY)", allowNo: true, default: true });
