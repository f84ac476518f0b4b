import { lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configIoError } from "../../adapters/config/config-io-error.js";
import { resolveCacheDir, resolveConfigPath } from "../../adapters/config/config-path.js";
import { ConfigFileError, JsonConfigStore } from "../../adapters/config/json-config-store.js";
import { parseConfig } from "../../adapters/config/parse-config.js";
import { locateJsonValue } from "../../adapters/config/json-locate.js";
import { findJsonSyntaxProblem } from "../../adapters/config/json-syntax-error.js";
import { tempHome } from "../helpers/harness.js";

const SECRET = "sk-or-v1-0123456789abcdef0123456789abcdef";

/** The ConfigFileError a config text raises, or a failed expectation. */
function problemOf(text: string): ConfigFileError {
  try {
    parseConfig("/cfg/config.json", text);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigFileError);
    return error as ConfigFileError;
  }
  throw new Error("expected the config to be refused");
}

describe("config path", () => {
  it("follows QUOTABAR_CONFIG, then an absolute XDG_CONFIG_HOME, then ~/.config", () => {
    expect(resolveConfigPath({ QUOTABAR_CONFIG: "/x/c.json", HOME: "/h" })).toBe("/x/c.json");
    expect(resolveConfigPath({ XDG_CONFIG_HOME: "/xdg", HOME: "/h" })).toBe("/xdg/quotabar/config.json");
    expect(resolveConfigPath({ XDG_CONFIG_HOME: "relative", HOME: "/h" })).toBe("/h/.config/quotabar/config.json");
    expect(resolveCacheDir({ XDG_CACHE_HOME: "/c", HOME: "/h" })).toBe("/c/quotabar");
    expect(resolveCacheDir({ HOME: "/h" })).toBe("/h/.cache/quotabar");
  });
});

describe("JsonConfigStore", () => {
  it("reads a missing file as an empty config", async () => {
    const store = new JsonConfigStore(join(tempHome(), "none", "config.json"));
    expect(await store.load()).toEqual({ version: 1, providers: [] });
  });

  it("writes atomically at mode 0600 and keeps unknown fields at every level", async () => {
    const dir = tempHome();
    const file = join(dir, "config.json");
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        theme: "dark",
        providers: [{ id: "zai", region: "bigmodel-cn", extra: { nested: [1, 2] } }],
        status: { enabled: false, color: "red" },
      }),
    );
    const store = new JsonConfigStore(file);
    await store.update((config) => {
      config.providers[0]!.apiKey = "k";
    });
    const written = JSON.parse(readFileSync(file, "utf8"));
    expect(written).toEqual({
      version: 1,
      theme: "dark",
      providers: [{ id: "zai", region: "bigmodel-cn", extra: { nested: [1, 2] }, apiKey: "k" }],
      status: { enabled: false, color: "red" },
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("reports a syntax error with path, line and column and never overwrites the file", async () => {
    const dir = tempHome();
    const file = join(dir, "config.json");
    const broken = '{\n  "providers": [\n    { "id": "zai", }\n  ]\n}\n';
    writeFileSync(file, broken);
    const store = new JsonConfigStore(file);
    const error = (await store.load().catch((e) => e)) as ConfigFileError;
    expect(error).toBeInstanceOf(ConfigFileError);
    expect(error).toMatchObject({ path: file, line: 3, column: 20 });
    expect(error.message).toContain(`${file}:3:20`);
    await expect(store.update(() => undefined)).rejects.toBeInstanceOf(ConfigFileError);
    expect(readFileSync(file, "utf8")).toBe(broken);
  });

  it("reports a wrong field type with its path", async () => {
    const file = join(tempHome(), "config.json");
    writeFileSync(file, JSON.stringify({ providers: [{ id: "zai", enabled: "yes" }] }));
    await expect(new JsonConfigStore(file).load()).rejects.toThrow(/providers\[0\]\.enabled/);
  });

  it("reports wrong types at the line and column of the offending value", () => {
    expect(problemOf('{\n  "version": 1,\n  "providers": {}\n}')).toMatchObject({
      line: 3,
      column: 16,
      message: "/cfg/config.json:3:16: providers must be an array of provider entries",
    });
    expect(problemOf('{"providers": [\n  {"id": "zai"},\n    "openrouter"\n]}')).toMatchObject({
      line: 3,
      column: 5,
      problem: "providers[1] must be an object (a provider entry)",
    });
    expect(problemOf('{"providers": [],\n "timeoutSeconds": "x"}')).toMatchObject({
      line: 2,
      column: 20,
      problem: "timeoutSeconds must be a number of seconds from 1 to 600",
    });
    // a missing field points at the entry that lacks it; a repeated key at the occurrence JSON.parse keeps
    expect(problemOf('{"providers": [\n  {"enabled": true}\n]}')).toMatchObject({
      line: 2,
      column: 3,
      problem: "providers[0].id is missing",
    });
    expect(problemOf('{"timeoutSeconds": 5,\n"timeoutSeconds": 0}')).toMatchObject({ line: 2, column: 19 });
    expect(problemOf("[]")).toMatchObject({ line: 1, column: 1, problem: "the top level must be a JSON object" });
  });

  it("checks the notify settings, at the root and in a provider's entry", () => {
    const ok = parseConfig("/c", '{"notify": {"thresholds": [50, 99.5]}, "providers": [{"id": "zai", "notify": {"runOut": false}}]}');
    expect(ok).toMatchObject({ notify: { thresholds: [50, 99.5] }, providers: [{ id: "zai", notify: { runOut: false } }] });
    expect(problemOf('{"notify": {\n  "thresholds": [80, 120]}}')).toMatchObject({
      line: 2,
      column: 22,
      problem: "notify.thresholds[1] must be a percent from 1 to 100",
    });
    expect(problemOf('{"providers": [{"id": "zai", "notify": {"incidents": "yes"}}]}')).toMatchObject({
      problem: "providers[0].notify.incidents must be true or false",
    });
  });

  it("accepts timeoutSeconds from 1 to 600 only, with line and column otherwise", () => {
    expect(parseConfig("/c", '{"timeoutSeconds": 600}').timeoutSeconds).toBe(600);
    expect(parseConfig("/c", '{"timeoutSeconds": 1.5}').timeoutSeconds).toBe(1.5);
    for (const bad of ["2147484", "0", "-3", "1e999"]) {
      expect(problemOf(`{\n  "timeoutSeconds": ${bad}\n}`)).toMatchObject({
        line: 2,
        column: 21,
        problem: "timeoutSeconds must be a number of seconds from 1 to 600",
      });
    }
  });

  it("refuses values nested deeper than 64 levels with line and column, and never overflows the stack", async () => {
    const nest = (depth: number) => `{"providers": [], "deep": ${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
    expect(() => parseConfig("/c", nest(64))).not.toThrow();
    expect(problemOf(nest(65))).toMatchObject({ line: 1, column: 90, problem: "values nested deeper than 64 levels" });
    const file = join(tempHome(), "config.json");
    writeFileSync(file, `{\n  "x": ${"[".repeat(200_000)}${"]".repeat(200_000)}\n}\n`);
    await expect(new JsonConfigStore(file).load()).rejects.toMatchObject({ line: 2, column: 71 });
  });

  it("accepts a UTF-8 byte order mark, counts columns without it, and writes the file back without it", async () => {
    const file = join(tempHome(), "config.json");
    writeFileSync(file, '\ufeff{"providers": [{"id": "zai", "region": "bigmodel-cn"}]}');
    const store = new JsonConfigStore(file);
    expect((await store.load()).providers).toEqual([{ id: "zai", region: "bigmodel-cn" }]);
    await store.update((config) => void (config.providers[0]!.apiKey = "k"));
    const written = readFileSync(file, "utf8");
    expect(written.charCodeAt(0)).toBe("{".charCodeAt(0));
    expect(JSON.parse(written).providers).toEqual([{ id: "zai", region: "bigmodel-cn", apiKey: "k" }]);
    expect(problemOf('\ufeff{"a": tru}')).toMatchObject({ line: 1, column: 7 });
  });

  it("writes through a symbolic link: the link stays, its target gets the new content at mode 0600", async () => {
    const dir = tempHome();
    mkdirSync(join(dir, "dotfiles"));
    const target = join(dir, "dotfiles", "quotabar.json");
    writeFileSync(target, JSON.stringify({ providers: [{ id: "warp", apiKey: "old-key" }], mine: 1 }), { mode: 0o644 });
    const link = join(dir, "config.json");
    symlinkSync("dotfiles/quotabar.json", link);
    const hop = join(dir, "second-link.json"); // a link to a link
    symlinkSync(link, hop);
    await new JsonConfigStore(hop).update((config) => void (config.providers[0]!.apiKey = "new-key"));
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(lstatSync(hop).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe("dotfiles/quotabar.json");
    expect(JSON.parse(readFileSync(target, "utf8"))).toEqual({ providers: [{ id: "warp", apiKey: "new-key" }], mine: 1 });
    expect(statSync(target).mode & 0o777).toBe(0o600);

    const dangling = join(dir, "dangling.json");
    symlinkSync(join(dir, "dotfiles", "new.json"), dangling);
    await new JsonConfigStore(dangling).update((config) => void config.providers.push({ id: "zai" }));
    expect(lstatSync(dangling).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, "dotfiles", "new.json"), "utf8")).providers).toEqual([{ id: "zai" }]);
  });

  it("says which part of the path is not a directory when the file cannot be written, and writes nothing", async () => {
    const dir = tempHome();
    writeFileSync(join(dir, "not-a-dir"), "x");
    for (const file of [join(dir, "not-a-dir", "config.json"), join(dir, "not-a-dir", "deeper", "config.json")]) {
      const error = (await new JsonConfigStore(file).update(() => undefined).catch((e) => e)) as ConfigFileError;
      expect(error).toBeInstanceOf(ConfigFileError);
      expect(error.message).toMatch(
        new RegExp(`^${file}: cannot write: ${join(dir, "not-a-dir")} is a file, not a directory \\((ENOTDIR|EEXIST)\\)$`),
      );
      expect(error.hint).toContain("--config or QUOTABAR_CONFIG");
    }
    expect(readFileSync(join(dir, "not-a-dir"), "utf8")).toBe("x");
  });

  it("words permission and other file system failures with the path and what to do, never Node's raw message", async () => {
    const raw = (code: string) => Object.assign(new Error(`${code}: permission denied, open '/cfg/config.json.123.abc.tmp'`), { code });
    const denied = await configIoError("/cfg/config.json", "write", raw("EACCES"));
    expect(denied).toMatchObject({
      message: "/cfg/config.json: cannot write: permission denied in /cfg (EACCES)",
      hint: expect.stringContaining("Make /cfg and /cfg/config.json writable for your user"),
    });
    expect((await configIoError("/cfg/config.json", "read", raw("EACCES"))).message).toBe(
      "/cfg/config.json: cannot read: permission denied (EACCES)",
    );
    expect((await configIoError("/cfg/config.json", "write", raw("EROFS"))).message).toContain("/cfg is on a read-only file system");
    expect((await configIoError("/cfg/config.json", "write", raw("ENOSPC"))).message).toContain("no space left");
    expect((await configIoError("/cfg/config.json", "write", raw("EIO"))).message).toBe(
      "/cfg/config.json: cannot write: the file system refused (EIO)",
    );
    for (const code of ["EACCES", "EROFS", "ENOSPC", "EIO", "ENAMETOOLONG", "ELOOP", "EISDIR"]) {
      expect((await configIoError("/cfg/config.json", "write", raw(code))).message).not.toContain(".tmp");
    }
  });

  it("never quotes the file's contents in a problem, so a secret in it stays out of messages", () => {
    const broken = [
      `{"providers": [{"id": "openrouter", "apiKey": "${SECRET}" "enabled": true}]}`,
      `{"providers": [{"id": "openrouter", "apiKey": "${SECRET}}]}`,
      `{"providers": [{"id": "openrouter", "apiKey": ${SECRET}}]}`,
      `{"providers": [{"id": "openrouter", "apiKey": ["${SECRET}"]}]}`,
      `{"providers": [{"id": "${SECRET}", "enabled": "${SECRET}"}]}`,
      `{"providers": "${SECRET}"}`,
      `{"timeoutSeconds": "${SECRET}"}`,
      `{"${SECRET}": 1, "version": "${SECRET}"}`,
    ];
    for (const text of broken) {
      const error = problemOf(text);
      expect(error.message.startsWith("/cfg/config.json:1:")).toBe(true);
      expect(error.message).not.toContain(SECRET.slice(0, 12));
    }
  });

  it("never loses a change when writers race", async () => {
    const dir = tempHome();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "config.json");
    const stores = Array.from({ length: 40 }, () => new JsonConfigStore(file));
    await Promise.all(stores.map((store, i) => store.update((c) => void c.providers.push({ id: `p${i}` }))));
    const ids = (JSON.parse(readFileSync(file, "utf8")).providers as { id: string }[]).map((p) => p.id).sort();
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
  });
});

describe("findJsonSyntaxProblem", () => {
  it("locates the first problem by line and column", () => {
    expect(findJsonSyntaxProblem('{"a": 1}')).toBeNull();
    expect(findJsonSyntaxProblem('{\n  "a": 1,\n}')).toMatchObject({ line: 3, column: 1 });
    expect(findJsonSyntaxProblem('{"a": tru}')).toMatchObject({ line: 1, column: 7 });
    expect(findJsonSyntaxProblem('{"a": "x')).toMatchObject({ problem: "unterminated string" });
    expect(findJsonSyntaxProblem("")).toMatchObject({ line: 1, column: 1, problem: "unexpected end of file" });
    expect(findJsonSyntaxProblem('{"a": 1} x')).toMatchObject({ line: 1, column: 10 });
    expect(findJsonSyntaxProblem('{"a": \u0000}')).toMatchObject({ column: 7, problem: "unexpected control character U+0000" });
  });

  it("bounds the depth it walks, so a deep text is reported rather than overflowing the stack", () => {
    expect(findJsonSyntaxProblem(`${"[".repeat(64)}${"]".repeat(64)}`)).toBeNull();
    expect(findJsonSyntaxProblem(`${"[".repeat(300_000)}`)).toMatchObject({ line: 1, column: 65, kind: "depth" });
    expect(findJsonSyntaxProblem(`[[1]]`, 1)).toMatchObject({ column: 2, problem: "nested deeper than 1 levels" });
  });
});

describe("locateJsonValue", () => {
  const text = '{\n  "a": [1, {"b": "x"}],\n  "c\\u0064": null\n}';
  it("finds where the value at a path starts, or its nearest present ancestor", () => {
    expect(locateJsonValue(text, [])).toEqual({ line: 1, column: 1 });
    expect(locateJsonValue(text, ["a", 1, "b"])).toEqual({ line: 2, column: 18 });
    expect(locateJsonValue(text, ["cd"])).toEqual({ line: 3, column: 14 });
    expect(locateJsonValue(text, ["a", 5])).toEqual({ line: 2, column: 8 });
    expect(locateJsonValue("{", ["a"])).toBeNull();
  });
});
