import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DESCRIPTORS, PROVIDER_IDS } from "../../providers/registry.js";
import { simulatedUpstreams } from "../../simulator/upstreams.js";

const ROOT = join(import.meta.dirname, "..", "..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const readme = read("README.md");

/** Every document a user gets: the READMEs, the docs folder, the bench's and each provider's page. */
const USER_DOCS = [
  "README.md",
  "bench/README.md",
  "raycast/README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
  ...PROVIDER_IDS.map((id) => `providers/${id}/README.md`),
];

describe("README.md matches the product", () => {
  it("lists the providers in the registry's order, in the table and in the sections", () => {
    const table = [...readme.matchAll(/^\|[^|\n]+\|[^|\n]+\| `([a-z0-9]+)`\s*\|$/gm)].map((m) => m[1]);
    expect(table).toEqual(PROVIDER_IDS);
    const sections = [...readme.matchAll(/^### [^(\n]+\(`([a-z0-9]+)`/gm)].map((m) => m[1]);
    expect(sections).toEqual(PROVIDER_IDS);
  });

  it("names every environment variable that `quotabar providers` lists", () => {
    const variables = DESCRIPTORS.flatMap((d) => d.credentialEnv);
    expect(variables.length).toBeGreaterThan(0);
    expect(variables.filter((variable) => !new RegExp(`\\b${variable}\\b`).test(readme))).toEqual([]);
  });

  it("counts the simulated providers as the simulator has them", async () => {
    const providers = (await simulatedUpstreams()).filter((u) => PROVIDER_IDS.includes(u.id));
    const overHttp = providers.filter((p) => p.routes.length > 0);
    const text = readme.replace(/\s+/g, " ");
    // the numbers the README states, not the whole README, in a failure
    expect(/the (\d+) providers the simulator plays over HTTP/.exec(text)?.[1]).toBe(String(overHttp.length));
    expect(/`quotabar demo` shows (\d+)/.exec(text)?.[1]).toBe(String(providers.length));
    for (const stated of text.matchAll(/\b(\d+) simulated providers/g)) expect(stated[1]).toBe(String(providers.length));
  });
});

describe("the docs a user gets", () => {
  it("point at no document the user does not have (a spec, its sections, a reference client)", () => {
    const elsewhere = /\bspec\b|\bspec's\b|\bsection \d+\b|\breference client\b|\bthe reference\b|\bcontract section\b|shared\/reference/i;
    for (const path of USER_DOCS) {
      const line = read(path)
        .split("\n")
        .find((l) => elsewhere.test(l));
      expect(line, path).toBeUndefined();
    }
  });

  it("say what CodexBar is where they first name it", () => {
    const naming = USER_DOCS.filter((path) => read(path).includes("CodexBar"));
    expect(naming).toContain("README.md");
    for (const path of naming) {
      const text = read(path).replace(/\s+/g, " ");
      const first = text.indexOf("CodexBar");
      expect(text.slice(first, first + 120), path).toMatch(/macOS menu-bar app/);
    }
  });
});
