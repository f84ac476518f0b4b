/** `--color` forces colour (into a pipe too) and `--no-color` turns it off; else a TTY without NO_COLOR. */
export function wantsColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv, flag: boolean | undefined): boolean {
  if (flag !== undefined) return flag;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return stream.isTTY === true;
}

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
  cyan(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

export function style(color: boolean): Style {
  if (!color) {
    const same = (text: string) => text;
    return { bold: same, dim: same, red: same, yellow: same, green: same, cyan: same };
  }
  return { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), yellow: wrap(33, 39), green: wrap(32, 39), cyan: wrap(36, 39) };
}
