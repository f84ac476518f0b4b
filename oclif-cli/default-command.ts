/** `quotabar -p copilot` means `quotabar usage -p copilot`: usage is the default command. */
const ROOT_FLAGS = new Set(["--help", "-h", "--version", "-v"]);

export function withDefaultCommand(argv: readonly string[]): string[] {
  const first = argv[0];
  if (first === undefined) return ["usage"];
  if (first.startsWith("-") && !ROOT_FLAGS.has(first)) return ["usage", ...argv];
  return [...argv];
}
