import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_APP_STATE_BYTES, readAppState } from "../../adapters/browser/app-state.js";
import { BetterSqlite } from "../../adapters/sqlite/better-sqlite3.js";
import { NodeSqlite } from "../../adapters/sqlite/node-sqlite.js";
import { writeCursorState } from "../helpers/cursor-state.js";

const hasNodeSqlite = await import("node:sqlite" as string).then(
  () => true,
  () => false,
);
const engines = [
  ["better-sqlite3 (the CLI)", new BetterSqlite()],
  ...(hasNodeSqlite ? [["node:sqlite (Raycast)", new NodeSqlite()] as const] : []),
] as const;
const home = mkdtempSync(join(tmpdir(), "quotabar-app-state-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe.each(engines)("an app's state database read with %s", (_name, sqlite) => {
  const { path } = writeCursorState(home, {
    "cursorAuth/accessToken": "header.payload.signature",
    "utf16/value": Buffer.from("café ✓", "utf16le"),
    "huge/value": "x".repeat(70 * 1024),
  });

  it("gives the keys asked for (text and UTF-8 / UTF-16 blobs), leaves out absent and oversized ones, and writes nothing", async () => {
    const before = readFileSync(path);
    const found = await readAppState(sqlite, path, [
      "cursorAuth/accessToken",
      "utf16/value",
      "cursorAuth/cachedEmail",
      "huge/value",
      "absent",
    ]);
    expect(found).toEqual({
      "cursorAuth/accessToken": "header.payload.signature",
      "utf16/value": "café ✓",
      "cursorAuth/cachedEmail": "dev@company.example",
    });
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it("is null for a missing file, and an error naming the file for one without ItemTable or too large", async () => {
    expect(await readAppState(sqlite, join(home, "nowhere", "state.vscdb"), ["k"])).toBeNull();
    const other = join(home, "other.vscdb");
    writeFileSync(other, "");
    await expect(readAppState(sqlite, other, ["k"])).rejects.toThrow(/no such table: ItemTable/);
    const sparse = join(home, "huge.vscdb");
    writeFileSync(sparse, "");
    truncateSync(sparse, MAX_APP_STATE_BYTES + 1);
    await expect(readAppState(sqlite, sparse, ["k"])).rejects.toThrow(`${sparse} is larger than 2 GiB`);
    rmSync(sparse);
  });
});
