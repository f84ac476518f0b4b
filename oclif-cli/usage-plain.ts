import { ACCOUNT_LABEL } from "../domain/account.js";
import type { UsageRequest } from "../domain/usage-service.js";
import { PROVIDER_IDS } from "../providers/registry.js";
import { createCliCore } from "./composition.js";
import { EXIT } from "./exit-codes.js";
import { style, wantsColor } from "./render/style.js";
import { renderUsageText } from "./render/usage-text.js";
import { SOURCE_MODES, TIMEOUT_SECONDS } from "./usage-flag-values.js";
import { writeOutput } from "./plain-output.js";
import { eachPlainFlag } from "./plain-args.js";

interface PlainUsage {
  request: UsageRequest;
  json: boolean;
  config?: string;
  color?: boolean;
}

/**
 * The default command's arguments as bin/run.cjs reads them before oclif loads: `-p`, `--json`,
 * `--status`, `--source`, `--timeout`, `--config`, `--color`/`--no-color`, each plainly valid (the
 * values oclif-cli/commands/usage.ts takes). Anything else (help, a typo, an unknown id, a value out of
 * range, a flag given twice) is null, and oclif runs the command and says what is wrong.
 */
export function parseUsageArgs(args: readonly string[]): PlainUsage | null {
  const rest = args[0] === "usage" ? args.slice(1) : args;
  if (rest.length > 0 && !(rest[0] as string).startsWith("-")) return null;
  const providers: string[] = [];
  const plain: PlainUsage = { request: {}, json: false };
  const read = eachPlainFlag(rest, ["-p", "--provider"], ({ name, inline, value }) => {
    if (name === "-p" || name === "--provider") {
      const given = value();
      const at = given?.indexOf(":") ?? -1;
      const id = (at < 0 ? given : given?.slice(0, at))?.trim().toLowerCase();
      const account = at < 0 ? null : (given?.slice(at + 1).trim() ?? null);
      if (id === undefined || !PROVIDER_IDS.includes(id) || (account !== null && !ACCOUNT_LABEL.test(account))) return false;
      providers.push(account === null ? id : `${id}:${account}`);
    } else if ((name === "--json" || name === "--status" || name === "--color" || name === "--no-color") && inline === undefined) {
      if (name === "--json") plain.json = true;
      else if (name === "--status") plain.request.status = true;
      else if (plain.color !== undefined) return false;
      else plain.color = name === "--color";
    } else if (name === "--source") {
      const source = value();
      if (source === undefined || !(SOURCE_MODES as readonly string[]).includes(source)) return false;
      plain.request.source = source;
    } else if (name === "--timeout") {
      const seconds = Number(value());
      if (!Number.isInteger(seconds) || seconds < TIMEOUT_SECONDS.min || seconds > TIMEOUT_SECONDS.max) return false;
      plain.request.timeoutMs = seconds * 1000;
    } else if (name === "--config") {
      const config = value();
      if (config === undefined || config === "") return false;
      plain.config = config;
    } else return false;
    return true;
  });
  if (!read) return null;
  if (providers.length > 0) plain.request.providers = providers;
  return plain;
}

/**
 * `quotabar [-p <id>]... [--json]`, answered by bin/run.cjs before oclif loads: a poller or a script
 * runs it often, and oclif's load would be a good part of a run that is otherwise one round trip. The
 * same core call and output as oclif-cli/commands/usage.ts; false, before anything is printed, when
 * the arguments are not plainly valid, when the run would want a spinner (a person at a terminal,
 * which oclif's ux draws), or when anything goes wrong, so oclif, which owns parsing and error
 * output, runs the command instead (a failure that late repeats the fetch; it is rare: a bad config).
 */
export async function runUsagePlainly(args: readonly string[]): Promise<boolean> {
  const plain = parseUsageArgs(args);
  if (!plain || (!plain.json && process.stderr.isTTY === true)) return false;
  let output: string;
  let failed: boolean;
  try {
    const doc = await createCliCore(plain.config !== undefined ? { config: plain.config } : {}).usage.usage(plain.request);
    failed = doc.providers.some((p) => !p.ok);
    output = plain.json
      ? JSON.stringify(doc, null, 2)
      : renderUsageText(doc, style(wantsColor(process.stdout, process.env, plain.color)), new Date());
  } catch {
    return false;
  }
  await writeOutput(`${output}\n`);
  if (failed) process.exitCode = EXIT.providerFailed;
  return true;
}
