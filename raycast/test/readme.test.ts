import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DESCRIPTORS } from "../../providers/registry.js";
import { canRead } from "../shared/coming-soon.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const readable = DESCRIPTORS.filter((d) => canRead(d.id)).map((d) => d.name);
const comingSoon = DESCRIPTORS.filter((d) => !canRead(d.id)).map((d) => d.name);
const short = (name: string) => name.replace(/ \(unofficial\)$/, "");

/** The text of a `### heading` section, up to the next heading of any level. */
function section(heading: string): string {
  const start = readme.indexOf(`\n### ${heading}\n`);
  expect(start, `raycast/README.md has no "### ${heading}" section`).toBeGreaterThan(-1);
  const rest = readme.slice(start + heading.length + 6);
  const end = rest.search(/\n#{2,3} /);
  return end === -1 ? rest : rest.slice(0, end);
}

/** The names of a "**Label:** A, B and C." line. */
function namesAfter(label: string): string[] {
  const match = new RegExp(`\\*\\*${label}:\\*\\* ([^;]*?)(?:\\.\\s|;)`).exec(readme.replace(/\n/g, " "));
  expect(match, `raycast/README.md has no "**${label}:**" line`).not.toBeNull();
  return match![1]!.split(/, | and /).map((n) => n.trim());
}

describe("raycast/README.md says what works (update it when a provider's sources land)", () => {
  it("opens with the providers that work, then the ones still to come", () => {
    expect(namesAfter("Works today").sort()).toEqual(readable.map(short).sort());
    if (comingSoon.length > 0) expect(namesAfter("Coming soon").sort()).toEqual(comingSoon.map(short).sort());
    else expect(readme).not.toMatch(/\*\*Coming soon:\*\*/);
    expect(readme.indexOf("**Works today:**")).toBeLessThan(readme.indexOf("## Commands"));
  });

  it("has a setup row for every provider that works, and none for one that cannot be read yet", () => {
    const rows = section("Works today")
      .split("\n")
      .filter((line) => line.startsWith("| ") && !/^\| (Provider|-)/.test(line))
      .map((line) => line.split("|")[1]!.trim());
    expect([...rows].sort()).toEqual([...readable].sort());
    for (const name of comingSoon) expect(rows).not.toContain(name);
  });

  it("names every provider still to come under Coming soon, after the ones that work", () => {
    const soon = section("Coming soon");
    for (const name of comingSoon) expect(soon).toContain(name);
    expect(readme.indexOf("### Works today")).toBeLessThan(readme.indexOf("### Coming soon"));
  });
});

/** The text of a `## heading` section, up to the next `## ` heading. */
function chapter(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  expect(start, `raycast/README.md has no "## ${heading}" section`).toBeGreaterThan(-1);
  const rest = readme.slice(start + heading.length + 5);
  const end = rest.search(/\n## /);
  return (end === -1 ? rest : rest.slice(0, end)).replace(/\s+/g, " ");
}

describe("raycast/README.md's privacy section says what the extension reads and where secrets are kept", () => {
  const privacy = chapter("Privacy");
  const preferences = (
    JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      preferences: { name: string; title: string; label?: string }[];
    }
  ).preferences;

  it("names every provider whose cookies are read from a browser, and the cookie stores it reads", () => {
    const cookieProviders = DESCRIPTORS.filter((d) => d.settings?.some((s) => s.field === "cookieHeader")).map((d) =>
      d.name.replace(/ \(.*\)$/, ""),
    );
    expect(cookieProviders.length).toBeGreaterThan(0);
    const cookies = privacy.slice(privacy.indexOf("Browser cookie stores"), privacy.indexOf("Local Storage"));
    for (const name of cookieProviders) expect(cookies, name).toContain(name);
    for (const store of ["Safari", "Chrome", "Firefox", "Cookies.binarycookies", "cookies.sqlite"]) expect(cookies).toContain(store);
  });

  it("says when the Keychain is asked for a browser's key, by the preference that turns it off", () => {
    const browserSecrets = preferences.find((p) => p.name === "browserSecrets");
    expect(browserSecrets?.label).toBeDefined();
    expect(privacy).toContain(`**${browserSecrets!.label!}**`);
    expect(privacy).toContain(`**${browserSecrets!.title}**`);
    expect(privacy).toMatch(/Keychain's browser Safe Storage keys/);
    expect(privacy).not.toMatch(/does not read (browser|the macOS Keychain)/i);
  });

  it("names the local files and where secrets are kept", () => {
    for (const text of ["Local Storage", "~/.local/share/kilo/auth.json", "~/.config/gcloud", "~/.claude/projects"])
      expect(privacy).toContain(text);
    expect(privacy).toMatch(/Raycast's encrypted preferences/);
    expect(privacy).toMatch(/Raycast's encrypted LocalStorage/);
  });
});
