import { asBuffer, type Sqlite, type SqliteDatabase, type SqliteParam, type SqliteRow } from "./sqlite.js";

interface NodeStatement {
  setReadBigInts(on: boolean): void;
  all(...params: SqliteParam[]): Record<string, unknown>[];
}
interface NodeDatabase {
  prepare(sql: string): NodeStatement;
  close(): void;
}
interface NodeSqliteModule {
  DatabaseSync: new (path: string, options?: { open?: boolean; readOnly?: boolean }) => NodeDatabase;
}

// A variable, not a literal: Node 20 has no node:sqlite, and its types do not know the module.
const MODULE = "node:sqlite";

/** Node's built-in SQLite (Node 22.5 and later): what Raycast can use, since it loads no native addon. */
export class NodeSqlite implements Sqlite {
  async open(path: string): Promise<SqliteDatabase> {
    const { DatabaseSync } = (await import(MODULE)) as NodeSqliteModule;
    const db = new DatabaseSync(path);
    return {
      all(sql, params = []) {
        const statement = db.prepare(sql);
        statement.setReadBigInts(true);
        return statement
          .all(...params)
          .map(
            (row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Uint8Array ? asBuffer(v) : v])) as SqliteRow,
          );
      },
      close: () => db.close(),
    };
  }
}
