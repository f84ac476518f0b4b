import { describe, expect, it } from "vitest";
import { ConfigFileError } from "../../adapters/config/config-file-error.js";
import { parseConfig } from "../../adapters/config/parse-config.js";

/** The config fields of the browser credentials: checked like the others, with line and column, never quoting a value. */
const problemOf = (text: string) => {
  try {
    parseConfig("/c", text);
  } catch (error) {
    if (error instanceof ConfigFileError) return { line: error.line, column: error.column, problem: error.problem };
    throw error;
  }
  throw new Error("it parsed");
};

describe("browser settings in the config file", () => {
  it("accepts browserSecrets at the root, and an entry's browsers and cookieSource", () => {
    const config = parseConfig(
      "/c",
      '{"browserSecrets": false, "providers": [{"id": "ollama", "cookieSource": "manual", "browsers": ["firefox", "brave"]}]}',
    );
    expect(config.browserSecrets).toBe(false);
    expect(config.providers[0]).toMatchObject({ cookieSource: "manual", browsers: ["firefox", "brave"] });
    for (const source of ["auto", "manual", "off"])
      expect(parseConfig("/c", `{"providers": [{"id": "amp", "cookieSource": "${source}"}]}`)).toBeTruthy();
  });

  it("refuses a browserSecrets that is not true or false, at its line and column", () => {
    expect(problemOf('{\n  "browserSecrets": "no"\n}')).toMatchObject({
      line: 2,
      column: 21,
      problem: "browserSecrets must be true or false",
    });
  });

  it("refuses browsers that are not an array of strings, naming the entry and the item", () => {
    expect(problemOf('{"providers": [{"id": "ollama",\n  "browsers": "chrome"}]}')).toMatchObject({
      line: 2,
      column: 15,
      problem: "providers[0].browsers must be an array of browser ids (strings)",
    });
    expect(problemOf('{"providers": [{"id": "ollama", "browsers": ["chrome", 3]}]}')).toMatchObject({
      line: 1,
      column: 56,
      problem: "providers[0].browsers[1] must be a browser id (a string)",
    });
  });

  it("refuses a cookieSource other than auto, manual, off or a browser profile, without quoting it", () => {
    const found = problemOf('{"providers": [{"id": "ollama",\n "cookieSource": "secret-looking-value"}]}');
    expect(found).toMatchObject({
      line: 2,
      column: 18,
      problem: 'providers[0].cookieSource must be one of "auto", "manual", "off", or "<browser>:<profile>"',
    });
    expect(JSON.stringify(found)).not.toContain("secret-looking-value");
  });
});
