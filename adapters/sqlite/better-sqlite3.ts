import { loadOptionalAddon } from "../optional-addon.js";
import type { Sqlite, SqliteDatabase, SqliteParam, SqliteRow } from "./sqlite.js";

interface BetterStatement {
  safeIntegers(on: boolean): BetterStatement;
  all(...params: SqliteParam[]): unknown[];
}
interface BetterDatabase {
  prepare(sql: string): BetterStatement;
  close(): void;
}
type BetterConstructor = new (path: string, options: { fileMustExist: boolean }) => BetterDatabase;

/** better-sqlite3, loaded on the first open so that starting the CLI never loads the native addon. */
export class BetterSqlite implements Sqlite {
  private constructorOf: BetterConstructor | undefined;

  async open(path: string): Promise<SqliteDatabase> {
    this.constructorOf ??= loadOptionalAddon<BetterConstructor>("better-sqlite3");
    const db = new this.constructorOf(path, { fileMustExist: true });
    return {
      all: (sql, params = []) =>
        db
          .prepare(sql)
          .safeIntegers(true)
          .all(...params) as SqliteRow[],
      close: () => db.close(),
    };
  }
}
