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

/**
 * Replies serving a module's fixture files, each stamped with the moment it was recorded when that
 * differs from its upstream's `recordedAt` (so the demo moves its times consistently).
 */
export function fixtureReplies(moduleUrl: string, recordedAt: Readonly<Record<string, string>> = {}) {
  const fixture = fixturesOf(moduleUrl);
  const reply = (name: string, status: number, contentType: string) => ({
    status,
    body: fixture(name),
    headers: { "content-type": contentType },
    ...(recordedAt[name] ? { recordedAt: recordedAt[name] } : {}),
  });
  return {
    json: (name: string, status = 200) => reply(name, status, "application/json"),
    html: (name: string, status = 200) => reply(name, status, "text/html; charset=utf-8"),
    /** The recording moment of one fixture, for replies built by hand from it. */
    recorded: (name: string) => (recordedAt[name] ? { recordedAt: recordedAt[name] } : {}),
  };
}
