import { parseBarArgs } from "./bar/bar-args.js";
import { runBar } from "./bar/run-bar.js";
import { writeOutput } from "./plain-output.js";

/**
 * `quotabar bar ...`, answered by bin/run.cjs before oclif loads: a status bar runs it every few
 * seconds, and oclif's load would be most of a run that otherwise reads a few kept files. The same
 * runBar as the oclif command (oclif-cli/commands/bar.ts); false when the arguments are not plainly
 * valid or anything goes wrong, so oclif, which owns parsing and error output, runs the command instead.
 */
export async function runBarPlainly(args: readonly string[]): Promise<boolean> {
  const request = parseBarArgs(args);
  if (!request) return false;
  let result;
  try {
    result = await runBar(request, { env: process.env, now: () => new Date() });
  } catch {
    return false;
  }
  await writeOutput(`${result.output}\n`);
  process.exitCode = result.exitCode;
  return true;
}
