import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

interface Db {
  exec(sql: string): void;
  pragma(sql: string): unknown;
  prepare(sql: string): { run(...values: unknown[]): void };
  close(): void;
}
const Database = createRequire(import.meta.url)("better-sqlite3") as new (path: string) => Db;

/** Where the Cursor app keeps its global state on Linux, under this HOME. */
export const cursorStateDir = (home: string) => join(home, ".config", "Cursor", "User", "globalStorage");

/**
 * The Cursor app's state.vscdb as VS Code writes it: `ItemTable(key TEXT PRIMARY KEY, value BLOB)`
 * with raw (unquoted) values, some other keys beside the sign-in. `open` leaves the database open (in
 * WAL mode, a write not yet checkpointed), as a running app holds it; close it after the run.
 */
export function writeCursorState(
  home: string,
  items: Record<string, string | Buffer>,
  options: { open?: boolean } = {},
): { path: string; close: () => void } {
  const dir = cursorStateDir(home);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "state.vscdb");
  const db = new Database(path);
  if (options.open) db.pragma("journal_mode = WAL");
  db.exec("CREATE TABLE IF NOT EXISTS ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)");
  const insert = db.prepare("INSERT INTO ItemTable (key, value) VALUES (?, ?)");
  insert.run("workbench.panel.markers.hidden", '[{"id":"workbench.panel.markers","isHidden":false}]');
  insert.run("cursorAuth/cachedEmail", "dev@company.example");
  insert.run("cursorAuth/stripeMembershipType", "pro");
  for (const [key, value] of Object.entries(items)) insert.run(key, value);
  if (!options.open) {
    db.close();
    return { path, close: () => undefined };
  }
  return { path, close: () => db.close() };
}
