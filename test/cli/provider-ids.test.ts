import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempHome } from "../helpers/harness.js";

const env = () => ({ HOME: tempHome() });

describe("provider ids, the same in every command", () => {
  it("refuses an unknown id with one wording, exit 2, in every command that takes one", async () => {
    const runs = [
      ["-p", "nope"],
      ["status", "-p", "nope"],
      ["cache", "clear", "-p", "nope"],
      ["watch", "-p", "nope"],
      ["demo", "-p", "nope"],
      ["config", "set-key", "nope", "--stdin"],
      ["logout", "nope"],
      ["cookies", "nope"],
      ["login", "nope"],
      ["refresh-session", "nope"],
    ];
    for (const args of runs) {
      const run = await runCli(args, env(), "key\n");
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr, args.join(" ")).toContain("Error: Unknown provider id: nope");
      expect(run.stderr, args.join(" ")).toContain("Valid ids: copilot, openrouter");
    }
  });

  it("takes an id in any letter case", async () => {
    const run = await runCli(["cache", "clear", "-p", "Warp"], env());
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toContain("Forgot what was kept for warp.");
  });

  it("refuses `config set-key` for a provider that takes no key, saying what it needs instead", async () => {
    const run = await runCli(["config", "set-key", "jetbrains", "--stdin"], env(), "key\n");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Error: JetBrains AI takes no API key");
    expect(run.stderr).toContain("JetBrains AI authenticates with: None: AI Assistant's quota file");
  });

  it("words the paste hint for the platform it runs on", async () => {
    const run = await runCli(["config", "set-key", "warp", "--stdin"], { ...env(), WAYLAND_DISPLAY: "" }, "");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(process.platform === "darwin" ? "pbpaste |" : "xclip -o -selection clipboard |");
    if (process.platform !== "darwin") expect(run.stderr).not.toContain("pbpaste");
  });
});
