import { describe, expect, it } from "vitest";
import { parseCostArgs } from "../../oclif-cli/cost-plain.js";
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

/** `quotabar cost`'s flags bin/run.cjs answers before oclif loads; anything else is oclif's. */
describe("quotabar cost's arguments, read before oclif", () => {
  it("reads --agent (repeated), --since, --until, --by, --breakdown, --json, colour and --config, in either spelling", () => {
    const day = { agents: [], since: null, until: null, by: "day" };
    expect(parseCostArgs(["cost"], {})).toEqual({ request: day, json: false, breakdown: false });
    expect(
      parseCostArgs(
        ["cost", "--agent", "codex", "--agent=claude", "--since", " 2026-03-01 ", "--until=2026-03-31", "--by", "week", "--breakdown"],
        {},
      ),
    ).toEqual({
      request: { agents: ["codex", "claude"], since: "2026-03-01", until: "2026-03-31", by: "week" },
      json: false,
      breakdown: true,
    });
    expect(parseCostArgs(["cost", "--json", "--no-color", "--config", "/tmp/c.json"], {})).toEqual({
      request: day,
      json: true,
      breakdown: false,
      color: false,
    });
  });

  it("leaves to oclif whatever it must refuse or explain", () => {
    for (const args of [
      ["cost", "--agent", "gemini"],
      ["cost", "--agent"],
      ["cost", "--since", "2026-02-30"], // not a day: oclif's usage error (exit 2)
      ["cost", "--until", "yesterday"],
      ["cost", "--by", "year"],
      ["cost", "--by", "day", "--by", "week"], // a flag given twice
      ["cost", "--json=yes"],
      ["cost", "--color", "--no-color"],
      ["cost", "--config", "--json"],
      ["cost", "--update-prices"], // a fetch, with oclif's error handling
      ["cost", "--help"],
      ["cost", "claude"],
      ["usage", "--json"], // another command
    ])
      expect(parseCostArgs(args, {}), args.join(" ")).toBeNull();
    // QUOTABAR_CONTENT_TYPE=json makes oclif print JSON: its run
    expect(parseCostArgs(["cost"], { QUOTABAR_CONTENT_TYPE: "json" })).toBeNull();
  });
});
