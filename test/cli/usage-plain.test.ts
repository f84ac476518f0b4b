import { describe, expect, it } from "vitest";
import { parseUsageArgs } from "../../oclif-cli/usage-plain.js";

/** The default command's flags bin/run.cjs answers before oclif loads; anything else is oclif's. */
describe("the default command's arguments, read before oclif", () => {
  it("reads -p (any case, repeated), --json, --status, --source, --timeout, --config and colour, in either spelling", () => {
    expect(parseUsageArgs([])).toEqual({ request: {}, json: false });
    expect(parseUsageArgs(["usage"])).toEqual({ request: {}, json: false });
    expect(parseUsageArgs(["-p", "OpenRouter", "--provider=warp", "--json"])).toEqual({
      request: { providers: ["openrouter", "warp"] },
      json: true,
    });
    expect(
      parseUsageArgs(["usage", "--status", "--source", "api", "--timeout=5", "--config", "/tmp/c.json", "--no-color", "-p", "zai"]),
    ).toEqual({
      request: { status: true, source: "api", timeoutMs: 5000, providers: ["zai"] },
      json: false,
      config: "/tmp/c.json",
      color: false,
    });
    expect(parseUsageArgs(["--color"])).toMatchObject({ color: true });
  });

  it("leaves to oclif whatever it must refuse or explain", () => {
    for (const args of [
      ["-p", "nope"], // an unknown id: oclif's one wording
      ["-p"], // a flag without its value
      ["--timeout", "0"],
      ["--timeout", "601"],
      ["--timeout", "1.5"],
      ["--source", "webb"],
      ["--json", "--json"], // a flag given twice
      ["--json=yes"],
      ["--color", "--no-color"],
      ["--config", ""],
      ["--help"],
      ["-p", "zai", "-h"],
      ["--verbose"],
      ["demo", "-p", "zai"], // another command
      ["usage", "zai"], // an argument the command does not take
    ])
      expect(parseUsageArgs(args), args.join(" ")).toBeNull();
  });
});
