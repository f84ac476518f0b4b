import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** test/fixtures, found from the source tree or the built dist/ tree alike. */
function fixturesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, "test", "fixtures");
    if (existsSync(candidate)) return candidate;
    if (existsSync(join(dir, "fixtures")) && dir.endsWith("test")) return join(dir, "fixtures");
    dir = dirname(dir);
  }
  throw new Error("test/fixtures not found");
}

const cache = new Map<string, string>();

/** The text of a fixture file, e.g. `fixture("zai/sparse.json")`. */
export function fixture(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(join(fixturesDir(), name), "utf8");
    cache.set(name, text);
  }
  return text;
}

export const fixtureJson = (name: string): unknown => JSON.parse(fixture(name));
