import { describe, expect, it } from "vitest";
import { menuBarModel } from "../../menubar-raycast/menu-bar-model.js";
import { overlayPreferences } from "../shared/preferences.js";
import { listModel } from "../src/list-model.js";
import { doc, listing, NOW, openrouterNearLimit } from "./documents.js";

/** Two OpenRouter accounts: the default one (Raycast's preferences) and `team` from the config file. */
const team = { ...openrouterNearLimit, account: "team", plan: null };
const mine = { ...openrouterNearLimit, account: null };

describe("accounts in Raycast", () => {
  it("lists one row per account, titled `OpenRouter · team`, with its own CLI command, and no 'not set up' row for a provider that has one", () => {
    const rows = [
      ...listing(),
      { ...listing().find((l) => l.id === "openrouter")!, account: "team", enabled: true, credentialsFound: true },
    ];
    const model = listModel(doc(mine, team), rows, NOW);
    expect(model.enabled.map((r) => [r.id, r.title])).toEqual([
      ["openrouter", "OpenRouter"],
      ["openrouter:team", "OpenRouter · team"],
    ]);
    expect(model.enabled[1]).toMatchObject({ cliCommand: "quotabar -p openrouter:team" });
    expect(model.enabled[1]!.keywords).toContain("team");
    expect(model.enabled[1]!.markdown).toContain("## OpenRouter · team");
    expect(model.notSetUp.map((r) => r.id)).not.toContain("openrouter");
    expect(model.notSetUp.map((r) => r.id)).not.toContain("openrouter:team");
  });

  it("gives each account its own menu bar section", () => {
    const sections = menuBarModel(doc(mine, team), NOW).sections;
    expect(sections.map((s) => [s.id, s.title])).toEqual([
      ["openrouter", "OpenRouter"],
      ["openrouter:team", "OpenRouter · team"],
    ]);
  });

  it("lays the preferences over the default account's entry only, never over a named account's", () => {
    const file = { providers: [{ id: "openrouter", account: "team", apiKey: "sk-or-v1-team" }] };
    const config = overlayPreferences(file, { openrouterApiKey: "sk-or-v1-mine" });
    expect(config.providers).toEqual([
      { id: "openrouter", account: "team", apiKey: "sk-or-v1-team" },
      { id: "openrouter", apiKey: "sk-or-v1-mine", enabled: true },
    ]);
  });
});
