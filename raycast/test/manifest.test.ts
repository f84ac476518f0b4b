import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DESCRIPTORS, PROVIDER_IDS } from "../../providers/registry.js";
import { generateManifest, isProviderPreference, renderManifest, type RaycastManifest } from "../../scripts/raycast-manifest.js";
import { PROVIDER_PREFERENCES } from "../shared/preferences.js";

const text = readFileSync(new URL("../package.json", import.meta.url), "utf8");
const manifest = JSON.parse(text) as RaycastManifest & {
  preferences: { name: string; title: string; type: string; default?: unknown; data?: { value: string }[] }[];
  commands: {
    name: string;
    title: string;
    mode: string;
    interval?: string;
    preferences?: { name: string; data?: { value: string }[] }[];
  }[];
};

describe("raycast/package.json", () => {
  it("is what `npm run manifest` generates from the provider registry (run it when this fails)", () => {
    expect(renderManifest(text)).toBe(text);
  });

  it("declares every provider preference with the descriptor's title, a password field for secrets and a dropdown for regions", () => {
    for (const { name, setting } of PROVIDER_PREFERENCES) {
      const declared = manifest.preferences.find((p) => p.name === name);
      expect(declared, name).toBeDefined();
      expect(declared!.title).toBe(setting.title);
      expect(declared!.type).toBe(setting.field === "region" ? "dropdown" : "password");
      if (setting.field === "region") expect(declared!.default).toBe(setting.default);
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
    expect(choices).toEqual(["auto", ...PROVIDER_IDS]);
  });

  it("has a sign-in command per provider with a sign-in flow, titled from the registry, with its entry point", () => {
    for (const descriptor of DESCRIPTORS.filter((d) => d.signIn)) {
      const command = manifest.commands.find((c) => c.name === `${descriptor.id}-login`);
      expect(command?.title).toBe(descriptor.signIn!.title);
      expect(existsSync(new URL(`../src/${descriptor.id}-login.tsx`, import.meta.url))).toBe(true);
    }
    for (const command of manifest.commands)
      expect(existsSync(new URL(`../src/${command.name}.tsx`, import.meta.url)), command.name).toBe(true);
  });
});

describe("generateManifest", () => {
  const stale = (): RaycastManifest => {
    const copy = JSON.parse(text) as RaycastManifest;
    copy.preferences = [
      { name: "copilotToken", title: "GitHub Copilot Token", type: "password", required: false },
      ...copy.preferences.filter((p) => p.name !== "warpApiKey" && p.name !== "copilotApiKey"),
    ];
    const dropdown = (copy.commands[0]!.preferences as { data: { title: string; value: string }[] }[])[0]!;
    dropdown.data = [
      { title: "Most Used", value: "auto" },
      { title: "Old Name", value: "warp" },
    ];
    copy.commands[2]!.title = "Log In";
    return copy;
  };

  it("rewrites the registry's parts of a stale manifest, drops retired provider preferences, and keeps everything else", () => {
    const generated = generateManifest(stale());
    expect(generated).toEqual(JSON.parse(text));
    expect(renderManifest(JSON.stringify(stale()))).toBe(text);
  });

  it("keeps the non-provider preferences after the provider ones, in their order", () => {
    const generated = generateManifest(stale());
    expect(generated.preferences.map((p) => p.name).slice(-2)).toEqual(["statusChecks", "configPath"]);
    expect(isProviderPreference("copilotToken")).toBe(true);
    expect(isProviderPreference("kimik2ApiKey")).toBe(true);
    expect(isProviderPreference("configPath")).toBe(false);
    expect(isProviderPreference("statusChecks")).toBe(false);
  });

  it("refuses a registry sign-in that has no command to run it", () => {
    const copy = JSON.parse(text) as RaycastManifest;
    copy.commands = copy.commands.filter((c) => c.name !== "copilot-login");
    expect(() => generateManifest(copy)).toThrow(/copilot-login/);
  });
});
