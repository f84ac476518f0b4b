import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Writes `~/.config/quotabar/config.json` under a test HOME; returns a function that removes it again. */
export function writeConfig(home: string, config: object): () => void {
  const dir = join(home, ".config", "quotabar");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "config.json"), JSON.stringify({ version: 1, ...config }));
  return () => rmSync(join(home, ".config"), { recursive: true, force: true });
}
