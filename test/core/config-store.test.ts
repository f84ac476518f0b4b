import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveCacheDir, resolveConfigPath } from "../../adapters/config/config-path.js";
import { ConfigFileError, JsonConfigStore } from "../../adapters/config/json-config-store.js";
import { findJsonSyntaxProblem } from "../../adapters/config/json-syntax-error.js";
import { tempHome } from "../helpers/harness.js";

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
  });
});
