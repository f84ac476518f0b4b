import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The `fixtures/` folder beside a module, found from the source tree or the built dist/ tree alike
 * (the package ships `providers/<id>/fixtures` and `simulator/fixtures`, not copies in dist/).
 */
function fixturesBeside(moduleUrl: string): string {
  const dir = dirname(fileURLToPath(moduleUrl));
  const here = join(dir, "fixtures");
  if (existsSync(here)) return here;
  for (let up = dir; dirname(up) !== up; up = dirname(up)) {
    if (basename(up) === "dist") return join(dirname(up), relative(up, dir), "fixtures");
  }
  return here;
}

/** `fixture("limited.json")` reads `fixtures/limited.json` beside the calling module (cached). */
export function fixturesOf(moduleUrl: string): (name: string) => string {
  const dir = fixturesBeside(moduleUrl);
  const cache = new Map<string, string>();
  return (name) => {
    let text = cache.get(name);
    if (text === undefined) {
      text = readFileSync(join(dir, name), "utf8");
      cache.set(name, text);
    }
    return text;
  };
}
