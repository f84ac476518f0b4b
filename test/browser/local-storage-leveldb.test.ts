import { ClassicLevel } from "classic-level";
import fc from "fast-check";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { QuotabarError } from "../../domain/errors.js";
import { readChromiumLocalStorage as readWithClassicLevel } from "../../adapters/browser/leveldb/local-storage-classic-level.js";
import { readChromiumLocalStorage as readPure } from "../../adapters/browser/leveldb/local-storage-pure.js";
import { decodeScriptString, metaModifiedAt } from "../../adapters/browser/leveldb/chromium-local-storage.js";
import { Corruption } from "../../adapters/browser/leveldb/corruption.js";
import { crc32c, maskCrc } from "../../adapters/browser/leveldb/crc32c.js";
import { LEVELDB_LIMITS, readLevelDb } from "../../adapters/browser/leveldb/database.js";
import { batchOperations, logRecords } from "../../adapters/browser/leveldb/log-format.js";
import { readManifest } from "../../adapters/browser/leveldb/manifest.js";
import { snappyUncompress } from "../../adapters/browser/leveldb/snappy.js";
import { tableEntries } from "../../adapters/browser/leveldb/table-format.js";

const APP = "https://app.factory.ai";
const AUTH = "https://auth.factory.ai";
const scratch = mkdtempSync(join(tmpdir(), "quotabar-leveldb-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Blink's encoding of a script string: format byte 1 (Latin-1) when every char fits, else 0 (UTF-16LE). */
function encoded(text: string): Buffer {
  const latin1 = [...text].every((c) => c.charCodeAt(0) <= 0xff);
  return Buffer.concat([Buffer.from([latin1 ? 1 : 0]), Buffer.from(text, latin1 ? "latin1" : "utf16le")]);
}
const itemKey = (storageKey: string, key: string) => Buffer.concat([Buffer.from(`_${storageKey}\u0000`), encoded(key)]);
/** META value: field 1 last_modified (microseconds since 1601) and field 2 size_bytes, as protobuf varints. */
function metaValue(at: Date, size: number): Buffer {
  const varint = (value: bigint) => {
    const out: number[] = [];
    while (value >= 0x80n) {
      out.push(Number(value & 0x7fn) | 0x80);
      value >>= 7n;
    }
    return [...out, Number(value)];
  };
  const micros = (BigInt(at.getTime()) + 11_644_473_600_000n) * 1000n;
  return Buffer.from([0x08, ...varint(micros), 0x10, ...varint(BigInt(size))]);
}

/** A profile directory whose `Local Storage/leveldb` classic-level writes, shaped as Chromium shapes it. */
async function profileWith(
  name: string,
  fill: (db: ClassicLevel<Buffer, Buffer>) => Promise<void>,
): Promise<{ profile: string; dir: string }> {
  const profile = join(scratch, name);
  const dir = join(profile, "Local Storage", "leveldb");
  await mkdir(dir, { recursive: true });
  const db = new ClassicLevel<Buffer, Buffer>(dir, { keyEncoding: "buffer", valueEncoding: "buffer" });
  await db.open();
  await fill(db);
  await db.close();
  return { profile, dir };
}
const compactAll = (db: ClassicLevel<Buffer, Buffer>) => db.compactRange(Buffer.from([0]), Buffer.from([0xff]));
const MODIFIED = new Date("2026-03-01T12:00:00.000Z");

/** Tables (Snappy) below, newer writes and deletions in the log above, other origins and a partitioned key around. */
const standard = profileWith("standard", async (db) => {
  await db.put(Buffer.from("VERSION"), Buffer.from("1"));
  for (let i = 0; i < 2000; i++) await db.put(itemKey("https://filler.example", `k${i}`), encoded(`${"a".repeat(300)}${i}`));
  await db.put(itemKey(APP, "workos:refresh-token"), encoded("rt_old"));
  await db.put(itemKey(APP, "doomed"), encoded("deleted after compaction"));
  await db.put(itemKey(APP, "unicode"), encoded("тест ✓"));
  await db.put(itemKey(APP, "ключ"), encoded("a key in UTF-16"));
  await db.put(Buffer.from(`META:${APP}`), metaValue(MODIFIED, 120));
  await compactAll(db);
  await db.put(itemKey(APP, "workos:refresh-token"), encoded("rt_NEW_refresh"));
  await db.put(itemKey(APP, "workos:access-token"), encoded("eyJhbGciOiJub25lIn0.eyJvcmdfaWQiOiJvcmdfMSJ9.sig"));
  await db.del(itemKey(APP, "doomed"));
  await db.put(itemKey(APP, "flash"), encoded("written then deleted in the log"));
  await db.del(itemKey(APP, "flash"));
  await db.put(itemKey(APP, "latin1"), encoded("café"));
  await db.put(itemKey(AUTH, "workos:refresh-token"), encoded("rt_auth"));
  await db.put(itemKey("auth.factory.ai", "bare-host"), encoded("keyed by a bare host"));
  await db.put(itemKey(`${APP}/^0https://other.example`, "partitioned"), encoded("third-party context"));
  await db.put(itemKey("https://app.factory.ai.evil.example", "workos:refresh-token"), encoded("look-alike"));
});

const plain = (items: { origin: string; key: string; value: string }[]) => items.map(({ origin, key, value }) => ({ origin, key, value }));

describe("Chromium Local Storage from LevelDB (both readers)", () => {
  it("reads the newest value of every key of the origins, deletions honoured, tables and logs merged", async () => {
    const { profile, dir } = await standard;
    expect(readdirSync(dir).some((name) => name.endsWith(".ldb"))).toBe(true);
    const query = { origins: [APP, AUTH] };
    const pure = await readPure(profile, query);
    expect(plain(pure)).toEqual([
      { origin: APP, key: "latin1", value: "café" },
      { origin: APP, key: "unicode", value: "тест ✓" },
      { origin: APP, key: "workos:access-token", value: "eyJhbGciOiJub25lIn0.eyJvcmdfaWQiOiJvcmdfMSJ9.sig" },
      { origin: APP, key: "workos:refresh-token", value: "rt_NEW_refresh" },
      { origin: APP, key: "ключ", value: "a key in UTF-16" },
      { origin: AUTH, key: "bare-host", value: "keyed by a bare host" },
      { origin: AUTH, key: "workos:refresh-token", value: "rt_auth" },
    ]);
    expect(pure[0]?.originModifiedAt).toBe(MODIFIED.toISOString());
    expect(await readWithClassicLevel(profile, query)).toEqual(pure);
  });

  it("keeps only the asked keys, and leaves partitioned and look-alike storage out", async () => {
    const { profile } = await standard;
    const query = { origins: [APP], keys: ["workos:refresh-token", "partitioned", "missing"] };
    const expected = [{ origin: APP, key: "workos:refresh-token", value: "rt_NEW_refresh", originModifiedAt: MODIFIED.toISOString() }];
    expect(await readPure(profile, query)).toEqual(expected);
    expect(await readWithClassicLevel(profile, query)).toEqual(expected);
    expect(await readPure(profile, { origins: ["https://other.example"] })).toEqual([]);
  });

  it("decompresses the Snappy blocks classic-level wrote (the filler is not in the table as plain text)", async () => {
    const { profile, dir } = await standard;
    const table = readdirSync(dir).find((name) => name.endsWith(".ldb")) as string;
    expect(readFileSync(join(dir, table)).includes("a".repeat(64))).toBe(false);
    const filler = await readPure(profile, { origins: ["https://filler.example"] });
    expect(filler).toHaveLength(2000);
    expect(filler.find((item) => item.key === "k1999")?.value).toBe(`${"a".repeat(300)}1999`);
  });

  it("reads a database another process holds open (its LOCK taken): the pure reader in place, classic-level through a copy", async () => {
    const { profile, dir } = await profileWith("held", async (db) => {
      await db.put(itemKey(APP, "workos:refresh-token"), encoded("rt_held"));
    });
    const holder = new ClassicLevel<Buffer, Buffer>(dir, { keyEncoding: "buffer", valueEncoding: "buffer" });
    await holder.open();
    try {
      await holder.put(itemKey(APP, "while-open"), encoded("only in the live log"));
      const second = new ClassicLevel(dir);
      await expect(second.open()).rejects.toMatchObject({ code: "LEVEL_DATABASE_NOT_OPEN", cause: { code: "LEVEL_LOCKED" } });
      const expected = [
        { origin: APP, key: "while-open", value: "only in the live log" },
        { origin: APP, key: "workos:refresh-token", value: "rt_held" },
      ];
      expect(await readPure(profile, { origins: [APP] })).toEqual(expected);
      expect(await readWithClassicLevel(profile, { origins: [APP] })).toEqual(expected);
      expect(readdirSync(dir)).toContain("LOCK");
    } finally {
      await holder.close();
    }
  });

  it("gives no items for a profile without Local Storage", async () => {
    const empty = join(scratch, "no-local-storage");
    await mkdir(empty, { recursive: true });
    expect(await readPure(empty, { origins: [APP] })).toEqual([]);
    expect(await readWithClassicLevel(empty, { origins: [APP] })).toEqual([]);
  });
});

describe("Blink's stored strings and META records", () => {
  it("decodes format 1 as Latin-1 and format 0 as UTF-16LE, and refuses what is neither", () => {
    expect(decodeScriptString(Buffer.from([1, 0x63, 0x61, 0x66, 0xe9]))).toBe("café");
    expect(decodeScriptString(Buffer.concat([Buffer.from([0]), Buffer.from("✓", "utf16le")]))).toBe("✓");
    expect(decodeScriptString(Buffer.from([0, 0x41]))).toBeNull(); // odd UTF-16
    expect(decodeScriptString(Buffer.from([2, 0x41]))).toBeNull();
    expect(decodeScriptString(Buffer.alloc(0))).toBeNull();
    expect(decodeScriptString(Buffer.from([1]))).toBe("");
  });

  it("reads last_modified from a META record, the bytes Chromium 156 wrote included", () => {
    expect(metaModifiedAt(metaValue(MODIFIED, 7))).toBe(MODIFIED.toISOString());
    expect(metaModifiedAt(Buffer.from("08dd85bdce98f1ef171073", "hex"))).toMatch(/^20\d\d-/);
    expect(metaModifiedAt(Buffer.from([0x08]))).toBeUndefined();
    expect(metaModifiedAt(Buffer.from([0x12, 0x01, 0x00]))).toBeUndefined();
  });
});

describe("Snappy", () => {
  const block = (...bytes: (number | string)[]) =>
    Uint8Array.from(bytes.flatMap((b) => (typeof b === "string" ? [...Buffer.from(b, "latin1")] : [b])));
  const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");

  it("decodes literals and the three copy forms, overlapping runs included", () => {
    expect(text(snappyUncompress(block(4, 0x0c, "abcd"), 100))).toBe("abcd");
    expect(text(snappyUncompress(block(12, 0x0c, "abcd", 0x11, 4), 100))).toBe("abcdabcdabcd"); // 1-byte offset
    expect(text(snappyUncompress(block(6, 0x08, "xyz", 0x0a, 3, 0), 100))).toBe("xyzxyz"); // 2-byte offset
    expect(text(snappyUncompress(block(6, 0x08, "xyz", 0x0b, 3, 0, 0, 0), 100))).toBe("xyzxyz"); // 4-byte offset
    expect(text(snappyUncompress(block(11, 0x00, "a", 0x19, 1), 100))).toBe("a".repeat(11)); // a run
    expect(text(snappyUncompress(block(100, 0xf0, 99, "b".repeat(100)), 100))).toBe("b".repeat(100)); // long literal
  });

  it("refuses what does not add up, before allocating more than allowed", () => {
    const bad = [
      block(4, 0x0c, "abc"), // literal past the input
      block(8, 0x0c, "abcd", 0x01, 0), // offset 0
      block(8, 0x0c, "abcd", 0x01, 9), // offset before the start
      block(5, 0x0c, "abcd"), // fewer bytes than declared
      block(4, 0x0c, "abcd", 0x01, 4), // more bytes than declared
      block(0x80), // truncated length
      block(0xff, 0xff, 0xff, 0xff, 0x0f), // 4 GiB declared
    ];
    for (const input of bad) expect(() => snappyUncompress(input, 1024)).toThrow(Corruption);
  });

  it("never throws anything but Corruption, and never returns other than the declared length", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (input) => {
        try {
          const out = snappyUncompress(input, 4096);
          expect(out.length).toBeLessThanOrEqual(4096);
        } catch (error) {
          expect(error).toBeInstanceOf(Corruption);
        }
      }),
      { numRuns: 3000 },
    );
  });
});

/** LevelDB's log framing, written here from the format: 32 KiB blocks, 7-byte headers, masked CRC-32C. */
function logFile(records: Uint8Array[]): Buffer {
  const out: Buffer[] = [];
  let offset = 0;
  for (const record of records) {
    let rest = Buffer.from(record);
    let first = true;
    do {
      const room = 32_768 - (offset % 32_768);
      if (room < 7) {
        out.push(Buffer.alloc(room));
        offset += room;
        continue;
      }
      const take = Math.min(rest.length, room - 7);
      const last = take === rest.length;
      const type = first && last ? 1 : first ? 2 : last ? 4 : 3;
      const data = rest.subarray(0, take);
      const header = Buffer.alloc(7);
      header.writeUInt32LE(maskCrc(crc32c(data, crc32c(Uint8Array.of(type)))), 0);
      header.writeUInt16LE(take, 4);
      header[6] = type;
      out.push(header, data);
      offset += 7 + take;
      rest = rest.subarray(take);
      first = false;
    } while (rest.length > 0);
  }
  return Buffer.concat(out);
}

function writeBatch(sequence: number, ops: [string, string | null][]): Buffer {
  const header = Buffer.alloc(12);
  header.writeBigUInt64LE(BigInt(sequence), 0);
  header.writeUInt32LE(ops.length, 8);
  const varint = (n: number) => Buffer.from(n < 0x80 ? [n] : [(n & 0x7f) | 0x80, n >> 7]);
  const body = ops.flatMap(([key, value]) => {
    const k = Buffer.from(key);
    const parts = [Buffer.from([value === null ? 0 : 1]), varint(k.length), k];
    if (value !== null) parts.push(varint(Buffer.byteLength(value)), Buffer.from(value));
    return parts;
  });
  return Buffer.concat([header, ...body]);
}

function manifestEdit(comparator: string, tables: number[] = []): Buffer {
  const lp = (text: string) => Buffer.concat([Buffer.from([text.length]), Buffer.from(text)]);
  return Buffer.concat([
    Buffer.from([1]),
    lp(comparator),
    Buffer.from([2, 0, 3, 9, 4, 0]),
    ...tables.map((n) => Buffer.concat([Buffer.from([7, 0, n, 10]), lp("a"), lp("z")])),
  ]);
}

type TableEntrySpec = [key: string, sequence: number, value: string | null];

/** One block: every key written whole (no shared prefix), one restart point, then the raw-block trailer. */
function block(entries: [Buffer, Buffer][]): Buffer {
  const varint = (n: number) => Buffer.from(varintBytes(n));
  const body = Buffer.concat([
    ...entries.flatMap(([key, value]) => [varint(0), varint(key.length), varint(value.length), key, value]),
    Buffer.from([0, 0, 0, 0, 1, 0, 0, 0]), // restart at 0, one restart
  ]);
  const trailer = Buffer.alloc(5);
  trailer.writeUInt32LE(maskCrc(crc32c(Uint8Array.of(0), crc32c(body))), 1);
  return Buffer.concat([body, trailer]);
}

/** A LevelDB table written from the format: data blocks, an index block of their handles (repeated `times`), the footer. */
function tableFile(entries: TableEntrySpec[], times = 1): Buffer {
  const internal = ([key, sequence, value]: TableEntrySpec) => {
    const tag = Buffer.alloc(8);
    tag.writeBigUInt64LE((BigInt(sequence) << 8n) | (value === null ? 0n : 1n));
    return [Buffer.concat([Buffer.from(key), tag]), Buffer.from(value ?? "")] as [Buffer, Buffer];
  };
  return tableOf(block(entries.map(internal)), times);
}

/** A table around one data block as given (its keys whatever they are). */
function tableOf(data: Buffer, times = 1): Buffer {
  const handle = (offset: number, size: number) => Buffer.from([...varintBytes(offset), ...varintBytes(size)]);
  const index = block(Array.from({ length: times }, () => [Buffer.from("~"), handle(0, data.length - 5)] as [Buffer, Buffer]));
  const footer = Buffer.alloc(48);
  const indexHandle = handle(data.length, index.length - 5);
  indexHandle.copy(footer, 0); // the metaindex is not read: point it at the index too
  indexHandle.copy(footer, indexHandle.length);
  Buffer.from("57fb808b247547db", "hex").copy(footer, 40);
  return Buffer.concat([data, index, footer]);
}
function varintBytes(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  return [...out, n];
}

/** A LevelDB directory written by hand: CURRENT, one MANIFEST, the given logs. */
function handmade(name: string, files: Record<string, Buffer>, comparator = "leveldb.BytewiseComparator", tables: number[] = []): string {
  const dir = join(scratch, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  writeFileSync(join(dir, "CURRENT"), "MANIFEST-000001\n");
  writeFileSync(join(dir, "MANIFEST-000001"), logFile([manifestEdit(comparator, tables)]));
  for (const [file, bytes] of Object.entries(files)) writeFileSync(join(dir, file), bytes);
  return dir;
}
const everything = () => true;
const asText = (values: Map<string, Uint8Array>) =>
  Object.fromEntries([...values].map(([key, value]) => [Buffer.from(key, "latin1").toString(), Buffer.from(value).toString()]));

describe("LevelDB files read in TypeScript", () => {
  it("replays write batches in sequence order across logs, a later deletion removing a key", async () => {
    const dir = handmade("logs", {
      "000003.log": logFile([
        writeBatch(1, [
          ["a", "1"],
          ["b", "1"],
        ]),
        writeBatch(3, [["b", null]]),
      ]),
      "000004.log": logFile([
        writeBatch(4, [
          ["a", "2"],
          ["c", "x".repeat(100)],
        ]),
      ]),
    });
    expect(asText(await readLevelDb(dir, everything))).toEqual({ a: "2", c: "x".repeat(100) });
  });

  it("joins a record fragmented across 32 KiB blocks", async () => {
    const big = "v".repeat(200);
    const ops: [string, string][] = Array.from({ length: 400 }, (_, i) => [`key${i}`, big]);
    const dir = handmade("fragments", { "000003.log": logFile([writeBatch(1, ops)]) });
    const values = await readLevelDb(dir, everything);
    expect(values.size).toBe(400);
    expect(Buffer.from(values.get("key399") as Uint8Array).toString()).toBe(big);
  });

  it("skips what LevelDB skips in a log: a record that fails its checksum, a torn write at the end", async () => {
    const good = logFile([writeBatch(1, [["kept", "1"]])]);
    const damaged = logFile([writeBatch(2, [["lost", "1"]])]);
    damaged[10] = (damaged[10] as number) ^ 0xff;
    const torn = logFile([writeBatch(3, [["torn", "1"]])]).subarray(0, 12);
    const dir = handmade("skipped", {
      "000003.log": Buffer.concat([good]),
      "000004.log": damaged,
      "000005.log": Buffer.concat([good, torn]),
    });
    expect(asText(await readLevelDb(dir, everything))).toEqual({ kept: "1" });
  });

  it("lets the sequence number decide between a table and a log, whichever file holds the newer entry", async () => {
    const table = tableFile([
      ["deleted-in-table", 9, null],
      ["newer-in-table", 10, "from the table"],
      ["older-in-table", 2, "stale"],
    ]);
    const dir = handmade(
      "table-and-log",
      {
        "000005.ldb": table,
        "000003.log": logFile([
          writeBatch(3, [
            ["deleted-in-table", "was here"],
            ["newer-in-table", "from the log"],
            ["older-in-table", "fresh"],
          ]),
        ]),
      },
      "leveldb.BytewiseComparator",
      [5],
    );
    expect(asText(await readLevelDb(dir, everything))).toEqual({ "newer-in-table": "from the table", "older-in-table": "fresh" });
  });

  it("stops a table whose index sends it through one block over and over", () => {
    const table = tableFile([["big", 1, "x".repeat(1024 * 1024)]], 1000);
    expect(() => tableEntries(table, () => undefined)).toThrow(/over and over/);
  });

  it("ignores logs the MANIFEST says are already in tables", async () => {
    const dir = handmade("old-log", { "000001.log": logFile([writeBatch(1, [["stale", "1"]])]) });
    const manifest = Buffer.concat([manifestEdit("leveldb.BytewiseComparator"), Buffer.from([2, 2])]);
    writeFileSync(join(dir, "MANIFEST-000001"), logFile([manifest]));
    expect(asText(await readLevelDb(dir, everything))).toEqual({});
  });

  it("refuses an IndexedDB (another comparator), a missing CURRENT, a missing table, a damaged MANIFEST", async () => {
    const failure = (dir: string) =>
      readLevelDb(dir, everything).then(
        () => null,
        (error: unknown) => error as QuotabarError,
      );
    const idb = await failure(handmade("idb", {}, "idb_cmp1"));
    expect(idb).toMatchObject({ code: "parse", message: expect.stringContaining("IndexedDB") });

    const noCurrent = handmade("no-current", {});
    rmSync(join(noCurrent, "CURRENT"));
    expect(await failure(noCurrent)).toMatchObject({ code: "parse", message: expect.stringContaining("no CURRENT") });

    expect(await failure(handmade("no-table", {}, "leveldb.BytewiseComparator", [7]))).toMatchObject({
      code: "parse",
      message: expect.stringContaining("missing"),
    });

    const broken = handmade("broken-manifest", {});
    const bytes = readFileSync(join(broken, "MANIFEST-000001"));
    bytes[9] = (bytes[9] as number) ^ 0x01;
    writeFileSync(join(broken, "MANIFEST-000001"), bytes);
    expect(await failure(broken)).toMatchObject({ code: "parse", message: expect.stringContaining("MANIFEST-000001") });
  });

  it("names the table that is damaged or cut short", async () => {
    const { dir } = await standard;
    const table = readdirSync(dir).find((name) => name.endsWith(".ldb")) as string;
    const copy = join(scratch, "damaged-table");
    rmSync(copy, { recursive: true, force: true });
    mkdirSync(copy);
    for (const name of readdirSync(dir)) writeFileSync(join(copy, name), readFileSync(join(dir, name)));
    const bytes = readFileSync(join(copy, table));
    bytes[100] = (bytes[100] as number) ^ 0x55;
    writeFileSync(join(copy, table), bytes);
    await expect(readLevelDb(copy, everything)).rejects.toMatchObject({
      code: "parse",
      message: expect.stringContaining(`${table}: the block at`),
    });
    writeFileSync(join(copy, table), bytes.subarray(0, bytes.length - 20));
    await expect(readLevelDb(copy, everything)).rejects.toMatchObject({
      code: "parse",
      message: expect.stringContaining(`${table}: not a table`),
    });
  });

  it("the LevelDB reader checks its copy with the pure reader first (LevelDB asserts on some damage, ending the process): a parse error naming the table", async () => {
    const profile = join(scratch, "short-key");
    rmSync(profile, { recursive: true, force: true });
    const dir = join(profile, "Local Storage", "leveldb");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "CURRENT"), "MANIFEST-000001\n");
    writeFileSync(join(dir, "MANIFEST-000001"), logFile([manifestEdit("leveldb.BytewiseComparator", [5])]));
    writeFileSync(join(dir, "000005.ldb"), tableOf(block([[Buffer.from("short"), Buffer.from("value")]])));
    await expect(readWithClassicLevel(profile, { origins: [APP] })).rejects.toMatchObject({
      code: "parse",
      message: expect.stringContaining(`${dir} cannot be read: 000005.ldb: a table key is shorter than its sequence number`),
    });
  });

  it("stops at its limits with a parse error", async () => {
    const { dir } = await standard;
    await expect(readLevelDb(dir, everything, { limits: { ...LEVELDB_LIMITS, fileBytes: 1024 } })).rejects.toMatchObject({
      code: "parse",
      message: expect.stringContaining("more than the 1024 allowed"),
    });
    await expect(readLevelDb(dir, everything, { limits: { ...LEVELDB_LIMITS, entries: 100 } })).rejects.toMatchObject({
      code: "parse",
      message: expect.stringContaining("more than 100 entries"),
    });
  });

  it("stops when the caller gives up", async () => {
    const { dir } = await standard;
    await expect(readLevelDb(dir, everything, { signal: AbortSignal.abort() })).rejects.toThrow(/abort/i);
  });
});

describe("LevelDB parsers on damaged bytes (fuzz)", () => {
  const only = (run: () => void) => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(Corruption);
    }
  };
  const mutated = (original: Uint8Array) =>
    fc.array(fc.tuple(fc.nat(original.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }).chain((edits) =>
      fc.nat(original.length).map((cut) => {
        const bytes = Uint8Array.from(original);
        for (const [at, value] of edits) bytes[at] = value;
        return bytes.subarray(0, Math.max(cut, original.length - 64));
      }),
    );

  it("a table: every entry or a Corruption, never an exception of another kind", async () => {
    const { dir } = await standard;
    const table = readFileSync(join(dir, readdirSync(dir).find((name) => name.endsWith(".ldb")) as string));
    fc.assert(
      fc.property(mutated(table), (bytes) => only(() => tableEntries(bytes, () => undefined))),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 48, maxLength: 600 }), (bytes) => {
        const withMagic = Buffer.concat([bytes, Buffer.from("57fb808b247547db", "hex")]);
        only(() => tableEntries(withMagic, () => undefined));
      }),
      { numRuns: 2000 },
    );
  });

  it("a log and its batches, a MANIFEST: records or a Corruption", () => {
    const log = logFile([
      writeBatch(1, [
        ["a", "1"],
        ["b", null],
      ]),
      writeBatch(3, [["c", "x".repeat(40)]]),
    ]);
    fc.assert(
      fc.property(mutated(log), (bytes) =>
        only(() => {
          for (const record of logRecords(bytes)) batchOperations(record);
        }),
      ),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => only(() => batchOperations(bytes))),
      { numRuns: 2000 },
    );
    const manifest = logFile([manifestEdit("leveldb.BytewiseComparator", [5, 6])]);
    fc.assert(
      fc.property(mutated(manifest), (bytes) => only(() => readManifest(bytes))),
      { numRuns: 2000 },
    );
  });

  it("a whole directory with a damaged file: items or a parse error, from both readers", async () => {
    const { dir } = await standard;
    const files = readdirSync(dir).filter((name) => name !== "LOCK" && name !== "LOG");
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...files), fc.nat(), fc.integer({ min: 1, max: 255 }), async (file, at, flip) => {
        const profile = join(scratch, "fuzzed");
        const copy = join(profile, "Local Storage", "leveldb");
        rmSync(profile, { recursive: true, force: true });
        mkdirSync(copy, { recursive: true });
        for (const name of readdirSync(dir)) writeFileSync(join(copy, name), readFileSync(join(dir, name)));
        const bytes = readFileSync(join(copy, file));
        bytes[at % bytes.length] = (bytes[at % bytes.length] as number) ^ flip;
        writeFileSync(join(copy, file), bytes);
        for (const read of [readPure, readWithClassicLevel]) {
          const outcome = await read(profile, { origins: [APP] }).then(
            (items) => items,
            (error: unknown) => error,
          );
          if (!Array.isArray(outcome)) expect(outcome).toMatchObject({ code: "parse" });
        }
      }),
      { numRuns: 12 },
    );
  });
});
