import { createCliCore } from "./composition.js";
import { providersTable } from "./render/providers-table.js";
import { style, wantsColor } from "./render/style.js";
import { writeOutput } from "./plain-output.js";

/**
 * `quotabar providers` and `quotabar providers --json`, typed just so, answered without oclif, as
 * bin/run.cjs answers `--version` and `--help`: loading oclif is ~40 ms of a listing that is otherwise
 * ~50 ms. The same core call and the same table as the oclif command (oclif-cli/commands/providers.ts),
 * with that command's defaults; false when anything goes wrong, so oclif, which owns parsing and
 * error output, runs the command instead.
 */
export async function listProvidersPlainly(json: boolean): Promise<boolean> {
  let rows;
  try {
    rows = await createCliCore({}).usage.listProviders();
  } catch {
    return false;
  }
  const lines = json ? [JSON.stringify(rows, null, 2)] : providersTable(rows, style(wantsColor(process.stdout, process.env, undefined)));
  await writeOutput(lines.map((line) => `${line}\n`).join(""));
  return true;
}
