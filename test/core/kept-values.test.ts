import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileTextStore } from "../../adapters/cache/file-text-store.js";
import { StoredKeptValues } from "../../adapters/cache/stored-kept-values.js";
import { MemorySecretStore } from "../../adapters/secrets/memory-secret-store.js";
import { accountKey } from "../../domain/account.js";

function setup() {
  const dir = mkdtempSync(join(tmpdir(), "qb-kept-"));
  const secrets = new MemorySecretStore();
  let now = Date.parse("2026-11-23T10:00:00Z");
  const clock = { now: () => new Date(now) };
  const store = new StoredKeptValues(new FileTextStore(dir), secrets, clock, "origins");
  const files = () => readdirSync(dir, { recursive: true }).map((f) => String(f));
  const text = () =>
    files()
      .map((f) => {
        try {
          return readFileSync(join(dir, f), "utf8");
        } catch {
          return "";
        }
      })
      .join("\n");
  return { dir, secrets, store, files, text, advance: (ms: number) => void (now += ms) };
}

describe("kept values: what a provider learnt in an earlier run with the same credential", () => {
  it("gives back a plain value to a later run with the same credential, until it expires", async () => {
    const { store, advance } = setup();
    await store.scoped(accountKey("opencode"), ["cookie-a"], () => undefined).write("workspace", "wrk_1", 60_000);
    const later = store.scoped(accountKey("opencode"), ["cookie-a"], () => undefined);
    expect(await later.read("workspace")).toBe("wrk_1");
    advance(60_000);
    expect(await store.scoped(accountKey("opencode"), ["cookie-a"], () => undefined).read("workspace")).toBeNull();
  });

  it("never hands one credential's values to another, nor a simulator's to the real service", async () => {
    const { secrets, store } = setup();
    await store.scoped(accountKey("vertexai"), ["refresh-a"], () => undefined).writeSecret("accessToken", "ya29.a", 60_000);
    expect(await store.scoped(accountKey("vertexai"), ["refresh-b"], () => undefined).readSecret("accessToken")).toBeNull();
    const realOrigins = new StoredKeptValues(
      new FileTextStore(mkdtempSync(join(tmpdir(), "qb-kept-"))),
      secrets,
      { now: () => new Date("2026-11-23T10:00:00Z") },
      "",
    );
    expect(await realOrigins.scoped(accountKey("vertexai"), ["refresh-a"], () => undefined).readSecret("accessToken")).toBeNull();
  });

  it("keeps secrets in the secret store only, and reports each one it hands out for redaction", async () => {
    const { secrets, store, text } = setup();
    const seen: string[] = [];
    await store.scoped(accountKey("vertexai"), ["refresh-a"], (s) => seen.push(s)).writeSecret("accessToken", "ya29.secret-token", 60_000);
    await store.scoped(accountKey("vertexai"), ["refresh-a"], () => undefined).write("limits", [{ value: 5 }], 60_000);
    expect(text()).not.toContain("ya29.secret-token");
    expect(text()).not.toContain("refresh-a");
    expect(await secrets.get("quotabar", "kept:vertexai")).toContain("ya29.secret-token");
    const reader = store.scoped(accountKey("vertexai"), ["refresh-a"], (s) => seen.push(s));
    expect(await reader.readSecret("accessToken")).toBe("ya29.secret-token");
    expect(seen).toEqual(["ya29.secret-token", "ya29.secret-token"]);
  });

  it("forgets one value, or everything of a provider", async () => {
    const { secrets, store, files } = setup();
    const kept = store.scoped(accountKey("vertexai"), ["refresh-a"], () => undefined);
    await kept.writeSecret("accessToken", "ya29.a", 60_000);
    await kept.write("limits", [1], 60_000);
    await kept.forget("accessToken");
    const again = store.scoped(accountKey("vertexai"), ["refresh-a"], () => undefined);
    expect(await again.readSecret("accessToken")).toBeNull();
    expect(await again.read("limits")).toEqual([1]);
    await store.removeAll(accountKey("vertexai"));
    expect(files().filter((f) => f.endsWith(".json"))).toEqual([]);
    expect(await secrets.get("quotabar", "kept:vertexai")).toBeNull();
  });

  it("reads a damaged record as empty and replaces it on the next write", async () => {
    const { dir, store } = setup();
    await store.scoped(accountKey("opencode"), ["c"], () => undefined).write("workspace", "wrk_1", 60_000);
    const file = join(dir, "kept", "opencode.json");
    writeFileSync(file, '{"scope": 3, "values": [');
    const kept = store.scoped(accountKey("opencode"), ["c"], () => undefined);
    expect(await kept.read("workspace")).toBeNull();
    await kept.write("workspace", "wrk_2", 60_000);
    expect(await store.scoped(accountKey("opencode"), ["c"], () => undefined).read("workspace")).toBe("wrk_2");
  });

  it("costs a round trip, never the refresh, when the secret store fails", async () => {
    const dir = mkdtempSync(join(tmpdir(), "qb-kept-"));
    const broken = {
      get: async () => Promise.reject(new Error("locked")),
      set: async () => Promise.reject(new Error("locked")),
      delete: async () => false,
    };
    const store = new StoredKeptValues(new FileTextStore(dir), broken, { now: () => new Date() });
    await expect(
      store.scoped(accountKey("vertexai"), ["r"], () => undefined).writeSecret("accessToken", "t", 1000),
    ).resolves.toBeUndefined();
    await expect(store.scoped(accountKey("vertexai"), ["r"], () => undefined).readSecret("accessToken")).resolves.toBeNull();
  });
});
