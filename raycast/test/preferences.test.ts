import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PROVIDER_IDS } from "../../domain/providers/descriptor.js";
import type { QuotabarConfig } from "../../ports/config-store.js";
import { overlayPreferences, PROVIDER_PREFERENCES, sharedConfigPath } from "../src/preferences.js";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  preferences: { name: string; title: string; type: string; default?: unknown; data?: { value: string }[] }[];
  commands: { name: string; mode: string; interval?: string; preferences?: { name: string; data?: { value: string }[] }[] }[];
};

describe("overlayPreferences", () => {
  const file: QuotabarConfig = {
    version: 1,
    providers: [
      { id: "zai", apiKey: "file-key", region: "bigmodel-cn", custom: { kept: true } },
      { id: "warp", enabled: false },
    ],
    status: { enabled: false, intervalMinutes: 7 },
    timeoutSeconds: 9,
    codexbarField: "kept",
  };

  it("lays keys over the file, and turns their providers on unless the file says enabled: false", () => {
    const config = overlayPreferences(file, { zaiApiKey: " pref-key ", warpApiKey: "wk-1", openrouterApiKey: "sk-or-v1-x" });
    expect(config.providers).toEqual([
      { id: "zai", apiKey: "pref-key", region: "bigmodel-cn", custom: { kept: true }, enabled: true },
      { id: "warp", enabled: false, apiKey: "wk-1" },
      { id: "openrouter", apiKey: "sk-or-v1-x", enabled: true },
    ]);
    expect(config).toMatchObject({ timeoutSeconds: 9, codexbarField: "kept" });
  });

  it("keeps the file's region when the dropdown is left at its default, and overrides it otherwise", () => {
    expect(overlayPreferences(file, { zaiRegion: "global" }).providers[0]!.region).toBe("bigmodel-cn");
    expect(overlayPreferences({ providers: [] }, { zaiRegion: "global" }).providers).toEqual([{ id: "zai", region: "global" }]);
    expect(overlayPreferences(file, { minimaxRegion: "cn" }).providers).toContainEqual({ id: "minimax", region: "cn" });
  });

  it("turns a cookie preference into a manual cookie source", () => {
    expect(overlayPreferences({ providers: [] }, { ollamaCookie: "session=abc" }).providers).toEqual([
      { id: "ollama", cookieSource: "manual", cookieHeader: "session=abc", enabled: true },
    ]);
  });

  it("ignores empty preferences and never changes the stored config", () => {
    const before = JSON.stringify(file);
    const config = overlayPreferences(file, { zaiApiKey: "  ", statusChecks: true });
    expect(config.providers).toEqual(file.providers);
    expect(config.status).toEqual({ enabled: true, intervalMinutes: 7 });
    expect(JSON.stringify(file)).toBe(before);
  });

  it("expands ~ in the shared config path", () => {
    expect(sharedConfigPath({ configPath: "~/.config/quotabar/config.json" }, "/Users/me")).toBe("/Users/me/.config/quotabar/config.json");
    expect(sharedConfigPath({ configPath: " /etc/q.json " }, "/Users/me")).toBe("/etc/q.json");
    expect(sharedConfigPath({ configPath: "" }, "/Users/me")).toBeNull();
    expect(sharedConfigPath({}, "/Users/me")).toBeNull();
  });
});

describe("the manifest", () => {
  it("declares every provider preference with the same title, a password field for secrets and a dropdown for regions", () => {
    for (const preference of PROVIDER_PREFERENCES) {
      const declared = manifest.preferences.find((p) => p.name === preference.name);
      expect(declared, preference.name).toBeDefined();
      expect(declared!.title).toBe(preference.title);
      expect(declared!.type).toBe(preference.field === "region" ? "dropdown" : "password");
      if (preference.field === "region") expect(declared!.default).toBe(preference.defaultValue);
    }
    const known = new Set([...PROVIDER_PREFERENCES.map((p) => p.name), "statusChecks", "configPath"]);
    expect(manifest.preferences.map((p) => p.name).filter((n) => !known.has(n))).toEqual([]);
  });

  it("has the three commands, the menu bar every 5 minutes with a provider choice of all 17", () => {
    expect(manifest.commands.map((c) => [c.name, c.mode])).toEqual([
      ["menu-bar", "menu-bar"],
      ["show-usage", "view"],
      ["copilot-login", "view"],
    ]);
    const menuBar = manifest.commands[0]!;
    expect(menuBar.interval).toBe("5m");
    const choices = menuBar.preferences![0]!.data!.map((d) => d.value);
    expect(choices).toEqual(expect.arrayContaining(["auto", ...PROVIDER_IDS]));
    expect(choices).toHaveLength(PROVIDER_IDS.length + 1);
  });
});
