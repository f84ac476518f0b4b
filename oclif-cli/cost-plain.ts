import type { Agent } from "../providers/kit/cost/prices.js";
import type { Grouping } from "../providers/kit/cost/report.js";
import { dayStart } from "../providers/kit/cost/days.js";
import { runCost, type CostRequest } from "./cost-document.js";
import { renderCostText } from "./render/cost-text.js";
import { style, wantsColor } from "./render/style.js";
import { writeOutput } from "./plain-output.js";
import { eachPlainFlag } from "./plain-args.js";

interface PlainCost {
  request: CostRequest;
  json: boolean;
  breakdown: boolean;
  color?: boolean;
}

const AGENTS: readonly string[] = ["claude", "codex"];
const GROUPINGS: readonly string[] = ["day", "week", "month", "session"];

/**
 * `quotabar cost`'s arguments as bin/run.cjs reads them before oclif loads: `--agent` (repeated),
 * `--since`, `--until`, `--by`, `--breakdown`, `--json`, `--color`/`--no-color`, `--config`, each
 * plainly valid (the values oclif-cli/commands/cost.ts takes). Anything else (help, a typo, a date
 * that is not one, --update-prices, a flag given twice, QUOTABAR_CONTENT_TYPE) is null, and oclif runs
 * the command and says what is wrong.
 */
export function parseCostArgs(args: readonly string[], env: NodeJS.ProcessEnv = process.env): PlainCost | null {
  if (args[0] !== "cost" || env.QUOTABAR_CONTENT_TYPE !== undefined) return null;
  const rest = args.slice(1);
  const agents: Agent[] = [];
  const plain: PlainCost = { request: { agents, since: null, until: null, by: "day" }, json: false, breakdown: false };
  const read = eachPlainFlag(rest, ["--agent"], ({ name, inline, value }) => {
    if (name === "--agent") {
      const agent = value();
      if (agent === undefined || !AGENTS.includes(agent)) return false;
      agents.push(agent as Agent);
    } else if (name === "--since" || name === "--until") {
      const day = value()?.trim();
      if (day === undefined || dayStart(day) === null) return false;
      plain.request[name === "--since" ? "since" : "until"] = day;
    } else if (name === "--by") {
      const by = value();
      if (by === undefined || !GROUPINGS.includes(by)) return false;
      plain.request.by = by as Grouping;
    } else if ((name === "--json" || name === "--breakdown" || name === "--color" || name === "--no-color") && inline === undefined) {
      if (name === "--json") plain.json = true;
      else if (name === "--breakdown") plain.breakdown = true;
      else if (plain.color !== undefined) return false;
      else plain.color = name === "--color";
    } else if (name === "--config") {
      // taken by every command, used by none of cost's figures
      const config = value();
      if (!config || (inline === undefined && config.startsWith("-"))) return false;
    } else return false;
    return true;
  });
  return read ? plain : null;
}

/**
 * `quotabar cost` with plain flags, answered by bin/run.cjs before oclif loads (a warm run is mostly
 * start-up). The same runCost and output as oclif-cli/commands/cost.ts; false, before anything is
 * printed, when the arguments are not plainly valid or anything goes wrong, so oclif, which owns
 * parsing and error output, runs the command instead.
 */
export async function runCostPlainly(args: readonly string[]): Promise<boolean> {
  const plain = parseCostArgs(args);
  if (!plain) return false;
  let output: string;
  try {
    const { cost, doc } = await runCost(plain.request);
    output = plain.json
      ? JSON.stringify(doc, null, 2)
      : renderCostText(cost, style(wantsColor(process.stdout, process.env, plain.color)), {
          breakdown: plain.breakdown,
          by: plain.request.by,
        });
  } catch {
    return false;
  }
  await writeOutput(`${output}\n`);
  return true;
}
