import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { useSimulator } from "../helpers/harness.js";

const sim = useSimulator();
const ESC = "\u001b[";

describe("colour and pipes", () => {
  it("has no colour in a pipe by default, forces it with --color, and --no-color wins over nothing", async () => {
    const plain = await runCli(["-p", "warp"], sim.env());
    expect(plain.stdout).not.toContain(ESC);
    const forced = await runCli(["-p", "warp", "--color"], sim.env());
    expect(forced.stdout).toContain(ESC);
    const forcedUnderNoColor = await runCli(["-p", "warp", "--color"], sim.env({ NO_COLOR: "1" }));
    expect(forcedUnderNoColor.stdout).toContain(ESC); // the flag is the user's latest word
    const off = await runCli(["-p", "warp", "--no-color"], sim.env());
    expect(off.stdout).not.toContain(ESC);
  });

  it("separates refreshes with an Updated line when watch writes into a pipe", async () => {
    const watched = await runCli(["watch", "-p", "warp", "--interval", "10s", "--count", "1"], sim.env());
    const updates = watched.stdout.split("\n").filter((line) => /^Updated \d\d:\d\d:\d\d$/.test(line));
    expect(watched.code).toBe(0);
    expect(updates, watched.stdout + watched.stderr).toHaveLength(1);
    expect(watched.stdout.indexOf("Updated")).toBeLessThan(watched.stdout.indexOf("Warp"));
  });
});
