import { execute } from "@oclif/core";

/**
 * What bin/run.cjs hands every command but `--version` and `--help` to. oclif is bundled into dist/
 * with the commands (scripts/build.mjs), so the commands and this entry share one copy of it.
 */
export async function runOclif(args: readonly string[], dir: string): Promise<void> {
  await execute({ args: withDefaultCommand(args), dir });
}

/** `quotabar -p copilot` means `quotabar usage -p copilot`: usage is the default command. */
const ROOT_FLAGS = new Set(["--help", "-h", "--version", "-v"]);

function withDefaultCommand(argv: readonly string[]): string[] {
  const first = argv[0];
  if (first === undefined) return ["usage"];
  if (first.startsWith("-") && !ROOT_FLAGS.has(first)) return ["usage", ...argv];
  return [...argv];
}
