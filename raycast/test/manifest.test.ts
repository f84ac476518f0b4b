import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DESCRIPTORS, PROVIDER_IDS } from "../../providers/registry.js";
import { generateManifest, isProviderPreference, renderManifest, type RaycastManifest } from "../../scripts/raycast-manifest.js";
import { DEFAULT_TITLE, ROTATE_SECONDS, TITLE_MODES, titleOptionsOf } from "../../menubar-raycast/menu-bar-title.js";
import { canRead, comingSoonProviders, SHOW_COMING_SOON } from "../shared/coming-soon.js";
import { overlayPreferences, PROVIDER_PREFERENCES } from "../shared/preferences.js";

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
    const known = new Set([...PROVIDER_PREFERENCES.map((p) => p.name), "statusChecks", "configPath", "browserSecrets"]);
    expect(manifest.preferences.map((p) => p.name).filter((n) => !known.has(n))).toEqual([]);
  });

  it("has the three commands, the menu bar every minute with a choice of every provider this version reads", () => {
    expect(manifest.commands.map((c) => [c.name, c.mode])).toEqual([
      ["menu-bar", "menu-bar"],
      ["show-usage", "view"],
      ["copilot-login", "view"],
    ]);
    const menuBar = manifest.commands[0]!;
    // launched every minute so a rotating title moves on; it fetches every 5 minutes (refresh-policy.ts)
    expect(menuBar.interval).toBe("1m");
    const choices = menuBar.preferences![0]!.data!.map((d) => d.value);
    expect(choices).toEqual(["auto", ...PROVIDER_IDS.filter(canRead)]);
  });

  it("gives the menu bar its title preferences: the modes and Rotate's steps the command knows, Compact and Notifications", () => {
    const preferences = manifest.commands[0]!.preferences as unknown as {
      name: string;
      type: string;
      default: unknown;
      data?: { value: string }[];
    }[];
    expect(preferences.map((p) => [p.name, p.type, p.default])).toEqual([
      ["menuBarProvider", "dropdown", "auto"],
      ["menuBarTitle", "dropdown", DEFAULT_TITLE.mode],
      ["menuBarRotateSeconds", "dropdown", String(DEFAULT_TITLE.rotateSeconds)],
      ["menuBarCompact", "checkbox", false],
      ["menuBarNotify", "checkbox", true],
    ]);
    expect(preferences[1]!.data!.map((d) => d.value)).toEqual([...TITLE_MODES]);
    expect(preferences[2]!.data!.map((d) => Number(d.value))).toEqual([...ROTATE_SECONDS]);
    // what Raycast gives back is what the command reads
    const chosen = Object.fromEntries(preferences.map((p) => [p.name, p.data ? p.data.at(-1)!.value : !p.default]));
    expect(titleOptionsOf(chosen)).toEqual({ mode: "rotate", compact: true, rotateSeconds: 600 });
  });

  it("gives the list a Show Coming Soon checkbox only while some provider is still to come", () => {
    const list = manifest.commands.find((c) => c.name === "show-usage")!;
    const names = ((list.preferences ?? []) as unknown as { name: string }[]).map((p) => p.name);
    expect(names.includes(SHOW_COMING_SOON)).toBe(comingSoonProviders().length > 0);
  });

  it("marks the preferences of a provider this version cannot read yet as coming soon, and only those", () => {
    for (const { name, provider } of PROVIDER_PREFERENCES) {
      const declared = manifest.preferences.find((p) => p.name === name) as unknown as { description: string };
      expect(declared.description.startsWith("Coming soon:"), name).toBe(!canRead(provider));
    }
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

describe("the Read browser secrets preference", () => {
  it("is a checkbox, on by default, that the preferences lay over the config root's browserSecrets", () => {
    const declared = manifest.preferences.find((p) => p.name === "browserSecrets") as unknown as Record<string, unknown>;
    expect(declared).toMatchObject({ type: "checkbox", required: false, default: true, label: "Read browser secrets" });
    const on = overlayPreferences({ providers: [] }, { browserSecrets: true });
    const off = overlayPreferences({ providers: [], browserSecrets: true }, { browserSecrets: false });
    expect([on.browserSecrets, off.browserSecrets]).toEqual([undefined, false]);
  });

  it("is generated once, whatever the manifest held", () => {
    const copy = JSON.parse(text) as RaycastManifest;
    copy.preferences = [...copy.preferences, { name: "browserSecrets", title: "Old", type: "checkbox" }];
    expect(generateManifest(copy).preferences.filter((p) => p.name === "browserSecrets")).toHaveLength(1);
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
    delete copy.commands[1]!.preferences;
    return copy;
  };

  it("rewrites the registry's parts of a stale manifest, drops retired provider preferences, and keeps everything else", () => {
    const generated = generateManifest(stale());
    expect(generated).toEqual(JSON.parse(text));
    expect(renderManifest(JSON.stringify(stale()))).toBe(text);
  });

  it("keeps the non-provider preferences after the provider ones, in their order, then Read browser secrets", () => {
    const generated = generateManifest(stale());
    expect(generated.preferences.map((p) => p.name).slice(-3)).toEqual(["statusChecks", "configPath", "browserSecrets"]);
    expect(isProviderPreference("copilotToken")).toBe(true);
    expect(isProviderPreference("kimik2ApiKey")).toBe(true);
    expect(isProviderPreference("configPath")).toBe(false);
    expect(isProviderPreference("statusChecks")).toBe(false);
  });

  describe("while providers are still to come (their modules have no sources yet)", () => {
    const soon = (id: string) => id !== "augment" && id !== "factory";
    const generated = generateManifest(JSON.parse(text) as RaycastManifest, { canRead: soon }) as unknown as typeof manifest;

    it("adds the list's Show Coming Soon checkbox, off by default, naming them", () => {
      const list = generated.commands.find((c) => c.name === "show-usage")!;
      expect(list.preferences).toEqual([
        {
          name: SHOW_COMING_SOON,
          title: "Coming Soon",
          label: "Show providers Quotabar cannot read yet",
          description:
            "Lists the providers whose support is still to come (Augment, Factory (Droid)) in a Coming Soon section, apart from the ones you can set up.",
          type: "checkbox",
          required: false,
          default: false,
        },
      ]);
    });

    it("says so in their preferences and leaves them out of the menu-bar dropdown", () => {
      const augment = generated.preferences.find((p) => p.name === "augmentCookie") as unknown as { description: string };
      expect(augment.description).toMatch(/^Coming soon: this version of Quotabar cannot read Augment yet\. /);
      const openrouter = generated.preferences.find((p) => p.name === "openrouterApiKey") as unknown as { description: string };
      expect(openrouter.description).not.toMatch(/Coming soon/);
      const choices = generated.commands[0]!.preferences![0]!.data!.map((d) => d.value);
      expect(choices).toEqual(["auto", ...PROVIDER_IDS.filter(soon)]);
    });

    it("drops the checkbox again once every provider can be read", () => {
      const later = generateManifest(generated as unknown as RaycastManifest, { canRead: () => true }) as unknown as typeof manifest;
      expect(later.commands.find((c) => c.name === "show-usage")!.preferences).toBeUndefined();
    });
  });

  it("refuses a registry sign-in that has no command to run it", () => {
    const copy = JSON.parse(text) as RaycastManifest;
    copy.commands = copy.commands.filter((c) => c.name !== "copilot-login");
    expect(() => generateManifest(copy)).toThrow(/copilot-login/);
  });
});
