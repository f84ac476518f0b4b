import { describe, expect, it } from "vitest";
import type { QuotabarConfig } from "../../ports/config-store.js";
import { DESCRIPTORS } from "../../providers/registry.js";
import { credentialPreferenceOf, overlayPreferences, PROVIDER_PREFERENCES, sharedConfigPath } from "../shared/preferences.js";

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

describe("PROVIDER_PREFERENCES", () => {
  it("has one preference per descriptor setting, named <id>ApiKey, <id>Cookie or <id>Region, in registry order", () => {
    const expected = DESCRIPTORS.flatMap((d) =>
      (d.settings ?? []).map((s) => `${d.id}${{ apiKey: "ApiKey", cookieHeader: "Cookie", region: "Region" }[s.field]}`),
    );
    expect(PROVIDER_PREFERENCES.map((p) => p.name)).toEqual(expected);
    expect(PROVIDER_PREFERENCES.map((p) => p.name)).toEqual(
      expect.arrayContaining(["copilotApiKey", "kimiCookie", "zaiRegion", "minimaxCookie"]),
    );
    expect(PROVIDER_PREFERENCES.map((p) => p.name)).not.toContain("copilotToken");
    expect(credentialPreferenceOf("minimax")?.name).toBe("minimaxApiKey");
    expect(credentialPreferenceOf("ollama")?.name).toBe("ollamaCookie");
    expect(credentialPreferenceOf("kiro")).toBeUndefined();
  });
});
