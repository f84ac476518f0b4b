import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

/** `quotabar cookies <id>` as a user runs it (the built bin), on a HOME with no browser. */
const home = mkdtempSync(join(tmpdir(), "quotabar-cookies-cli-"));
const env = { HOME: home, XDG_CONFIG_HOME: undefined, XDG_CACHE_HOME: undefined };
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("quotabar cookies", () => {
  it("refuses an unknown provider with a usage error", async () => {
    const result = await runCli(["cookies", "nope"], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Unknown provider id: nope");
  });

  it("answers in JSON: what was asked of which browsers, the notes, the choice", async () => {
    const result = await runCli(["cookies", "ollama", "--json"], env);
    expect(result.code).toBe(1); // nothing found at all
    const explained = JSON.parse(result.stdout) as {
      provider: string;
      interactive: boolean;
      queries: unknown[];
      notes: { outcome: string }[];
      chosen: unknown;
    };
    expect(explained).toMatchObject({ provider: "ollama", name: "Ollama", interactive: true, chosen: null });
    expect(Array.isArray(explained.queries) && Array.isArray(explained.notes)).toBe(true);
    // nothing is installed under this HOME: no look found anything
    expect(explained.notes.filter((n) => n.outcome === "found" || n.outcome === "chosen")).toEqual([]);
  });

  it("says a browser has no profile (not that it is not installed) when its folder is here without one, and exits 1", async () => {
    const withFolders = mkdtempSync(join(tmpdir(), "quotabar-cookies-cli-"));
    try {
      mkdirSync(join(withFolders, ".mozilla", "firefox"), { recursive: true });
      mkdirSync(join(withFolders, ".config", "chromium"), { recursive: true });
      mkdirSync(join(withFolders, ".config", "quotabar"), { recursive: true });
      writeFileSync(
        join(withFolders, ".config", "quotabar", "config.json"),
        JSON.stringify({ version: 1, providers: [{ id: "ollama", browsers: ["firefox", "chromium", "brave"] }] }),
      );
      const result = await runCli(["cookies", "ollama"], { ...env, HOME: withFolders });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/firefox\s+no-profile\s+Firefox has no profile with a cookie database/);
      expect(result.stdout).toMatch(/chromium\s+no-profile\s+Chromium has no profile with a cookie store/);
      expect(result.stdout).toMatch(/brave\s+not-installed\s+Brave has no profile data here/);
    } finally {
      rmSync(withFolders, { recursive: true, force: true });
    }
  });
});
