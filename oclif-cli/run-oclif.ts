import { execute } from "@oclif/core";
import { withDefaultCommand } from "./default-command.js";

/**
 * What bin/run.js hands every command but `--version` and `--help` to. oclif is bundled into dist/
 * with the commands (scripts/build.mjs), so the commands and this entry share one copy of it.
 */
export async function runOclif(args: readonly string[], dir: string): Promise<void> {
  await execute({ args: withDefaultCommand(args), dir });
}
