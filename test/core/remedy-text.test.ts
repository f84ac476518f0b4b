import { describe, expect, it } from "vitest";
import { writeCliRemedies } from "../../library/remedy-text.js";

describe("CLI wording of remedies", () => {
  it("names the command, the config field and the variables a user can act on", () => {
    expect(writeCliRemedies([{ kind: "set-key", provider: "warp", env: ["WARP_API_KEY", "WARP_TOKEN"] }])).toBe(
      "Run `quotabar config set-key warp --stdin` to store the key, or export WARP_API_KEY or WARP_TOKEN.",
    );
    expect(
      writeCliRemedies([
        { kind: "login", provider: "copilot" },
        { kind: "retry", afterSeconds: 42 },
      ]),
    ).toBe("Run `quotabar login copilot`. Retry in 42 s.");
    expect(writeCliRemedies([{ kind: "set-config", provider: "zai", field: "region", example: "bigmodel-cn" }])).toBe(
      "Set providers[zai].region (e.g. bigmodel-cn) in the config file.",
    );
    expect(writeCliRemedies([])).toBeNull();
  });

  it("says neighbouring fields of one entry in one sentence", () => {
    const fields = ["editorVersion", "editorPluginVersion", "apiVersion"].map((field) => ({
      kind: "set-config" as const,
      provider: "copilot",
      field,
    }));
    expect(writeCliRemedies([...fields, { kind: "advice", text: "Or update quotabar." }])).toBe(
      "Set providers[copilot].editorVersion, providers[copilot].editorPluginVersion, providers[copilot].apiVersion in the config file. Or update quotabar.",
    );
  });
});
