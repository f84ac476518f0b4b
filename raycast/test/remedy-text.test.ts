import { describe, expect, it } from "vitest";
import { budgetExceeded } from "../../domain/errors.js";
import type { Remedy } from "../../domain/remedy.js";
import { writeCliRemedies } from "../../library/remedy-text.js";
import { raycastRemedyText, raycastRemedyWriter } from "../shared/remedy-text.js";

const text = (remedy: Remedy, sharedConfigFile = false) => raycastRemedyText(remedy, { sharedConfigFile });

describe("Raycast's remedy writer", () => {
  it("points keys and cookies at the extension preferences, by the descriptor's setting title", () => {
    expect(text({ kind: "set-key", provider: "warp", env: ["WARP_API_KEY"] })).toBe("Add your Warp API Key in the extension preferences.");
    expect(text({ kind: "set-key", provider: "copilot", env: ["COPILOT_API_TOKEN"] })).toBe(
      "Add your GitHub Copilot Token in the extension preferences.",
    );
    expect(text({ kind: "set-cookie", provider: "kimi", env: ["KIMI_AUTH_TOKEN"], from: "https://www.kimi.com" })).toBe(
      "Paste a Cookie header from https://www.kimi.com into Kimi Cookie (kimi-auth) in the extension preferences.",
    );
    expect(text({ kind: "set-cookie", provider: "ollama", env: [] })).toBe(
      "Paste a Cookie header into Ollama Cookie Header in the extension preferences.",
    );
  });

  it("names the dropdown of a config field that has one, and the shared CLI config file otherwise", () => {
    expect(text({ kind: "set-config", provider: "zai", field: "region", example: "bigmodel-cn", env: ["Z_AI_API_HOST"] })).toBe(
      "Choose the right z.ai Region in the extension preferences (e.g. China (BigModel)).",
    );
    expect(text({ kind: "set-config", provider: "minimax", field: "region" })).toBe(
      "Choose the right MiniMax Region in the extension preferences.",
    );
    expect(text({ kind: "set-config", provider: "kilo", field: "source", example: "api" }, true)).toBe(
      "Set providers[kilo].source (e.g. api) in the shared CLI config file.",
    );
    expect(text({ kind: "set-config", provider: "kilo", field: "source" })).toBe(
      "Set providers[kilo].source in the quotabar CLI's config file and choose it as Shared CLI Config File in the extension preferences.",
    );
    // a key for a provider whose only preference is a cookie
    expect(text({ kind: "set-key", provider: "amp", env: [] }, true)).toBe("Set providers[amp].apiKey in the shared CLI config file.");
  });

  it("runs the registry's sign-in command for a login, and says nothing for a provider without one", () => {
    expect(text({ kind: "login", provider: "copilot" })).toBe("Run “Sign in to GitHub Copilot”.");
    expect(text({ kind: "login", provider: "warp" })).toBeNull();
  });

  it("keeps what holds everywhere, and drops the timeout advice unless a shared config file can take it", () => {
    expect(text({ kind: "advice", text: "The account may have no active Coding Plan." })).toBe(
      "The account may have no active Coding Plan.",
    );
    expect(text({ kind: "browser-sign-in", url: "https://platform.minimax.io" })).toBe(
      "Sign in at https://platform.minimax.io in your browser.",
    );
    expect(text({ kind: "install", tool: "the Kilo CLI", command: "kilo login" })).toBe("Install the Kilo CLI and run `kilo login`.");
    expect(text({ kind: "retry", afterSeconds: 60 })).toBe("Try again in 60 s.");
    expect(text({ kind: "retry", url: "https://www.githubstatus.com" })).toBe("Try again later (https://www.githubstatus.com).");
    expect(text({ kind: "raise-timeout" })).toBeNull();
    expect(text({ kind: "raise-timeout" }, true)).toBe("Raise timeoutSeconds in the shared CLI config file.");
  });

  it("writes one line, never naming environment variables or quotabar commands", () => {
    const remedies: Remedy[] = [
      { kind: "login", provider: "copilot" },
      { kind: "set-key", provider: "copilot", env: ["COPILOT_API_TOKEN"] },
      { kind: "set-key", provider: "copilot", env: ["COPILOT_API_TOKEN"] },
    ];
    const line = raycastRemedyWriter()(remedies);
    expect(line).toBe("Run “Sign in to GitHub Copilot”. Add your GitHub Copilot Token in the extension preferences.");
    expect(line).not.toMatch(/COPILOT_API_TOKEN|quotabar (login|config)/);
    expect(writeCliRemedies(remedies)).toMatch(/quotabar login copilot/);
    expect(raycastRemedyWriter()([])).toBeNull();
    expect(raycastRemedyWriter()(budgetExceeded("Warp", 15_000).remedies)).toBe("The service may be slow or unreachable; try again.");
  });
});
