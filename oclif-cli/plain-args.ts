/** A flag as the plain readers see it: `--name=value` split; `value()` the inline value, else the next argument (taken). */
export interface PlainFlag {
  name: string;
  inline: string | undefined;
  value(): string | undefined;
}

/**
 * Walks the arguments of a plain answer (bin/run.cjs) flag by flag; false when a flag not in
 * `repeatable` comes twice or `visit` gives up (returns false): oclif then runs the command and
 * says what is wrong.
 */
export function eachPlainFlag(args: readonly string[], repeatable: readonly string[], visit: (flag: PlainFlag) => boolean): boolean {
  const seen = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    if (!repeatable.includes(name)) {
      if (seen.has(name)) return false;
      seen.add(name);
    }
    if (!visit({ name, inline, value: () => inline ?? args[++i] })) return false;
  }
  return true;
}
