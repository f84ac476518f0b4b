import { accountKey, accountRef, isAccountLabel, parseAccountRef } from "../../domain/account.js";
import { PROVIDER_IDS } from "../../providers/registry.js";
import { BAR_METERS, type BarMeterChoice } from "../render/bar/bar-view.js";
import { BAR_FORMAT_NAMES, type BarFormat } from "../render/bar/formats.js";
import { DEFAULT_MAX_AGE, maxAgeMs, type BarRequest } from "./run-bar.js";

const VALUE_FLAGS: Readonly<Record<string, string>> = {
  "--format": "format",
  "--provider": "provider",
  "-p": "provider",
  "--max-age": "maxAge",
  "--meter": "meter",
  "--config": "config",
};

/**
 * `quotabar bar` arguments as bin/run.cjs reads them before oclif loads (a poller's run must stay
 * light): only the command's own flags with valid values, as `--flag value` or `--flag=value`.
 * Anything else (help, a typo, a bad value) is null, and oclif runs the command and says what is wrong.
 */
export function parseBarArgs(args: readonly string[]): BarRequest | null {
  const given: Record<string, string[]> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = VALUE_FLAGS[eq > 0 ? arg.slice(0, eq) : arg];
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
    if (name === undefined || value === undefined) return null;
    (given[name] ??= []).push(value);
  }
  // a flag given twice is oclif's to refuse
  if (Object.entries(given).some(([name, values]) => values.length > 1 && name !== "provider")) return null;
  const format = given.format?.[0] ?? "text";
  const meter = given.meter?.[0] ?? "auto";
  const maxAge = maxAgeMs(given.maxAge?.[0] ?? DEFAULT_MAX_AGE);
  // `id` or `id:account` (the id as the registry spells it, the label as written)
  const providers =
    given.provider?.map((ref) => parseAccountRef(ref.trim())).map(({ id, account }) => accountKey(id.trim().toLowerCase(), account)) ??
    null;
  const config = given.config?.[0];
  if (!BAR_FORMAT_NAMES.includes(format as BarFormat) || !BAR_METERS.includes(meter as BarMeterChoice) || maxAge === null) return null;
  if (providers && !providers.every(({ id, account }) => PROVIDER_IDS.includes(id) && (account === null || isAccountLabel(account))))
    return null;
  return {
    format: format as BarFormat,
    meter: meter as BarMeterChoice,
    maxAgeMs: maxAge,
    providers: providers ? [...new Set(providers.map(accountRef))] : null,
    ...(config !== undefined ? { config } : {}),
  };
}
