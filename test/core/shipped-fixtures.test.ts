import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The package ships `providers/*\/fixtures` because `quotabar demo` plays them; the fixtures only tests
 * read are left out by `!` entries in package.json's `files`. A fixture left out must be one that no
 * code the package runs (a provider's simulator, or any other non-test module of the provider) names.
 */
const root = join(import.meta.dirname, "..", "..");
const files = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { files: string[] }).files;
const leftOut = files.filter((f) => f.startsWith("!providers/")).map((f) => f.slice(1));

/** The files an entry names: one fixture, or a provider's whole folder (`…/fixtures/**`). */
function expand(entry: string): string[] {
  if (!entry.endsWith("/**")) return [entry];
  const dir = entry.slice(0, -3);
  return readdirSync(join(root, dir)).map((name) => `${dir}/${name}`);
}

/** The text of the modules the package runs for a provider (tests excluded). */
const runtimeSources = (id: string) =>
  readdirSync(join(root, "providers", id))
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .map((name) => readFileSync(join(root, "providers", id, name), "utf8"))
    .join("\n")
    .split("\n")
    // comment lines may name a fixture to say where a value comes from
    .filter((line) => !/^\s*(\/\/|\/?\*)/.test(line))
    .join("\n");

describe("the fixtures the package leaves out", () => {
  it("are named one by one, each an existing file of a provider's fixtures", () => {
    expect(leftOut.length).toBeGreaterThan(0);
    for (const entry of leftOut) {
      expect(entry).toMatch(/^providers\/[a-z0-9]+\/fixtures\/(\*\*|[\w.-]+)$/);
      for (const file of expand(entry)) expect(existsSync(join(root, file)), file).toBe(true);
    }
  });

  it("are read by no code the package runs: a whole folder only for a provider without a simulator", () => {
    for (const entry of leftOut) {
      const id = entry.split("/")[1] as string;
      if (entry.endsWith("/**")) expect(existsSync(join(root, "providers", id, "simulator.ts")), id).toBe(false);
      const sources = runtimeSources(id);
      for (const file of expand(entry)) {
        const name = file.split("/").at(-1) as string;
        expect(sources.includes(name), `${file} is left out of the package but providers/${id} names it`).toBe(false);
        // a name built from its stem, as sample("poll-pending") builds poll-pending.json
        const stem = name.replace(/\.\w+$/, "");
        const quoted = [`"${stem}"`, `'${stem}'`, `\`${stem}\``];
        expect(
          quoted.filter((q) => sources.includes(q)),
          `${file} is left out but named without its extension`,
        ).toEqual([]);
      }
    }
  });
});
