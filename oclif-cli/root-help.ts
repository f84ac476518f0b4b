import { COMMANDS } from "./commands.js";
import { usageFlags } from "./commands/usage.js";

interface FlagHelp {
  char?: string | undefined;
  description?: string | undefined;
  helpValue?: string | string[] | undefined;
  allowNo?: boolean | undefined;
  type?: string;
}

/**
 * `quotabar --help`: what a user needs first (the usage flags, since usage is the default
 * command), then every command. Written to dist at build time so it prints without loading oclif.
 */
export function renderRootHelp(version: string): string {
  const usage = { ...usageFlags, ...COMMANDS.usage.flags } as Record<string, FlagHelp>;
  const flags: [string, FlagHelp][] = [
    ["provider", usage.provider as FlagHelp],
    ["json", { description: "Print only the usage document (JSON) on stdout" }],
    ...(["status", "timeout", "source", "color"] as const).map((name): [string, FlagHelp] => [name, usage[name] as FlagHelp]),
    ["config", { description: "Path of the config file", helpValue: "<path>" }],
  ];
  const flagLines = flags.map(([name, flag]) => {
    const short = flag.char ? `-${flag.char}, ` : "    ";
    const long = flag.allowNo ? `--[no-]${name}` : `--${name}`;
    const value = flag.helpValue ? `=${String(flag.helpValue)}` : name === "source" ? "=<mode>" : "";
    return [`${short}${long}${value}`, flag.description ?? ""];
  });
  const commands = Object.entries(COMMANDS).map(([id, command]) => [id.replace(":", " "), command.summary ?? ""]);
  const table = (rows: string[][]) => {
    const width = Math.max(...rows.map(([left]) => (left as string).length));
    return rows.map(([left, right]) => `  ${(left as string).padEnd(width)}  ${right}`).join("\n");
  };
  return [
    "How much of each AI coding assistant quota is used, the plan, and when it resets.",
    "",
    "USAGE",
    "  $ quotabar [-p <id>]... [--json] [--status] [--timeout <s>] [--source <mode>] [--no-color]",
    "  $ quotabar COMMAND",
    "",
    "FLAGS (quotabar, the same as quotabar usage)",
    table(flagLines),
    "",
    "COMMANDS",
    table(commands),
    "",
    "EXAMPLES",
    "  $ quotabar demo                 try every view against the built-in simulator",
    "  $ quotabar -p copilot --json",
    "  $ quotabar providers            which providers quotabar found credentials for",
    "",
    `Run \`quotabar COMMAND --help\` for a command's own flags. quotabar/${version}`,
  ].join("\n");
}
