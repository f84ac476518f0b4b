import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { decodeOriginFile, readSafariLocalStorage, safariWebsiteDataRoot } from "../../adapters/browser/safari/local-storage.js";
import { safariLocalStorageReader } from "../../adapters/browser/safari/safari-readers.js";
import { BetterSqlite } from "../../adapters/sqlite/better-sqlite3.js";

interface Db {
  exec(sql: string): void;
  prepare(sql: string): { run(...params: unknown[]): void };
  pragma(sql: string): unknown;
  close(): void;
}
const Database = createRequire(import.meta.url)("better-sqlite3") as new (path: string) => Db;
const sqlite = new BetterSqlite();

type Origin = [protocol: string, host: string, port?: number];

/** WebKit's `origin` file: a ClientOrigin in WTF::Persistence encoding (the top origin, then the frame's). */
function originFile(top: Origin, client: Origin = top, wide = false): Buffer {
  const string = (text: string) => {
    const head = Buffer.alloc(5);
    head.writeUInt32LE(text.length, 0);
    head[4] = wide ? 0 : 1;
    return Buffer.concat([head, Buffer.from(text, wide ? "utf16le" : "latin1")]);
  };
  const securityOrigin = ([protocol, host, port]: Origin) => {
    const portBytes = port === undefined ? Buffer.from([0]) : Buffer.from([1, port & 0xff, port >> 8]);
    return Buffer.concat([string(protocol), string(host), portBytes]);
  };
  return Buffer.concat([securityOrigin(top), securityOrigin(client)]);
}

/** Safari's schema for a site's Local Storage; values are UTF-16LE blobs without a BOM. */
function createDatabase(path: string, items: Record<string, string>, table = "ItemTable"): void {
  mkdirSync(join(path, ".."), { recursive: true });
  const db = new Database(path);
  db.exec(`CREATE TABLE ${table} (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB NOT NULL ON CONFLICT FAIL)`);
  const insert = db.prepare(`INSERT INTO ${table} (key, value) VALUES (?, ?)`);
  for (const [key, value] of Object.entries(items)) insert.run(key, Buffer.from(value, "utf16le"));
  db.close();
}

const home = mkdtempSync(join(tmpdir(), "quotabar-safari-ls-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const root = safariWebsiteDataRoot(home);
let counter = 0;
/** One origin directory: `<top hash>/<frame hash>/origin`, plus its LocalStorage database when given items. */
function originDir(origin: Buffer, items?: Record<string, string>, table?: string): string {
  const dir = join(root, `top${counter}`, `frame${counter++}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "origin"), origin);
  if (items) createDatabase(join(dir, "LocalStorage", "localstorage.sqlite3"), items, table);
  return join(dir, "LocalStorage", "localstorage.sqlite3");
}

const APP = "https://app.factory.ai";
const AUTH = "https://auth.factory.ai";
const appDb = originDir(originFile(["https", "app.factory.ai"]), {
  "workos:refresh-token": "rt_safari_refresh",
  "workos:access-token": "eyJhbGciOiJub25lIn0.eyJvcmdfaWQiOiJvcmdfMSJ9.sig",
  unicode: "тест ✓",
});
originDir(
  originFile(["https", "auth.factory.ai"], ["https", "auth.factory.ai"], true),
  { "workos:refresh-token": "rt_auth" },
  "localstorage",
);
originDir(originFile(["https", "other.example"], ["https", "app.factory.ai"]), { "workos:refresh-token": "third-party frame" });
originDir(originFile(["https", "app.factory.ai.evil.example"]), { "workos:refresh-token": "look-alike" });
originDir(originFile(["http", "localhost", 8080]), { local: "port kept" });
originDir(originFile(["https", "app.factory.ai", 443]), undefined); // the default port written out, no LocalStorage
originDir(Buffer.from("garbage that is not an origin"), { "workos:refresh-token": "never read" });

describe("Safari Local Storage", () => {
  it("finds origins by their `origin` file and reads ItemTable's UTF-16LE values, first-party only", async () => {
    expect(await readSafariLocalStorage(root, { origins: [APP, AUTH, "http://localhost:8080"] }, sqlite)).toEqual([
      { origin: APP, key: "unicode", value: "тест ✓" },
      { origin: APP, key: "workos:access-token", value: "eyJhbGciOiJub25lIn0.eyJvcmdfaWQiOiJvcmdfMSJ9.sig" },
      { origin: APP, key: "workos:refresh-token", value: "rt_safari_refresh" },
      { origin: AUTH, key: "workos:refresh-token", value: "rt_auth" },
      { origin: "http://localhost:8080", key: "local", value: "port kept" },
    ]);
  });

  it("keeps only the asked keys", async () => {
    expect(await readSafariLocalStorage(root, { origins: [APP], keys: ["workos:refresh-token"] }, sqlite)).toEqual([
      { origin: APP, key: "workos:refresh-token", value: "rt_safari_refresh" },
    ]);
  });

  it("decodes origin files with 8-bit and 16-bit strings and an explicit port; anything else is no origin", () => {
    expect(decodeOriginFile(originFile(["https", "app.factory.ai"]))).toEqual({ top: APP, client: APP });
    expect(decodeOriginFile(originFile(["https", "app.factory.ai", 443], ["https", "app.factory.ai"], true))).toEqual({
      top: APP,
      client: APP,
    });
    expect(decodeOriginFile(originFile(["http", "localhost", 8080]))).toEqual({
      top: "http://localhost:8080",
      client: "http://localhost:8080",
    });
    const whole = originFile(["https", "app.factory.ai"]);
    for (let cut = 0; cut < whole.length; cut++) expect(decodeOriginFile(whole.subarray(0, cut))).toBeNull();
    expect(decodeOriginFile(Buffer.from("ffffffff", "hex"))).toBeNull();
  });

  it("reads a database another connection holds under an exclusive lock, through a copy", async () => {
    const holder = new Database(appDb);
    holder.pragma("locking_mode = EXCLUSIVE");
    holder.exec("BEGIN EXCLUSIVE");
    holder.prepare("INSERT INTO ItemTable (key, value) VALUES (?, ?)").run("uncommitted", Buffer.from("no", "utf16le"));
    try {
      const items = await readSafariLocalStorage(root, { origins: [APP] }, sqlite);
      expect(items.map((i) => i.key)).toEqual(["unicode", "workos:access-token", "workos:refresh-token"]);
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
  });

  it("includes rows that are still only in the write-ahead log", async () => {
    const path = originDir(originFile(["https", "wal.example"]), { first: "in the main file" });
    const writer = new Database(path);
    writer.pragma("journal_mode = WAL");
    writer.pragma("wal_autocheckpoint = 0");
    writer.prepare("INSERT INTO ItemTable (key, value) VALUES (?, ?)").run("second", Buffer.from("only in the WAL", "utf16le"));
    try {
      expect(await readSafariLocalStorage(root, { origins: ["https://wal.example"] }, sqlite)).toEqual([
        { origin: "https://wal.example", key: "first", value: "in the main file" },
        { origin: "https://wal.example", key: "second", value: "only in the WAL" },
      ]);
    } finally {
      writer.close();
    }
  });

  it("reports a damaged database as a parse error, and a missing root as no items", async () => {
    const path = originDir(originFile(["https", "broken.example"]));
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, Buffer.alloc(4096, 0x5a));
    await expect(readSafariLocalStorage(root, { origins: ["https://broken.example"] }, sqlite)).rejects.toMatchObject({
      code: "parse",
      message: expect.stringContaining("Safari Local Storage at"),
    });
    expect(await readSafariLocalStorage(join(home, "absent"), { origins: [APP] }, sqlite)).toEqual([]);
  });

  it("answers the Local Storage port with entries and one note", async () => {
    const reader = safariLocalStorageReader({ home, sqlite });
    const found = await reader.read({ origins: [AUTH], browsers: ["safari"] }, { interactive: false });
    expect(found).toEqual({
      entries: [{ browser: "safari", profile: "Safari", origin: AUTH, key: "workos:refresh-token", value: "rt_auth" }],
      notes: [
        {
          browser: "safari",
          profile: "Safari",
          outcome: "found",
          detail: "1 Local Storage item(s)",
          cookieNames: ["workos:refresh-token"],
        },
      ],
    });
    const nothing = await reader.read({ origins: ["https://unknown.example"], browsers: ["safari"] }, { interactive: false });
    expect(nothing.notes).toEqual([
      { browser: "safari", profile: "Safari", outcome: "nothing", detail: "no Local Storage item for https://unknown.example" },
    ]);
    const elsewhere = safariLocalStorageReader({ home: join(home, "nobody"), sqlite });
    expect((await elsewhere.read({ origins: [APP], browsers: ["safari"] }, { interactive: false })).notes).toEqual([
      { browser: "safari", outcome: "not-installed", detail: "Safari has no website data here" },
    ]);
  });
});
