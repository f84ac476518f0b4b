/**
 * The little of SQLite the browser readers need, behind one interface so each composition root picks
 * its engine: better-sqlite3 for the CLI and the library, Node's built-in `node:sqlite` in Raycast
 * (Node 22, no native addons). Integers always come back as bigint (Chromium's microseconds since
 * 1601 exceed 2^53), blobs as Buffer.
 */
export type SqliteValue = string | number | bigint | Buffer | null;
export type SqliteRow = Record<string, SqliteValue>;
export type SqliteParam = string | number | bigint | null;

export interface SqliteDatabase {
  all(sql: string, params?: readonly SqliteParam[]): SqliteRow[];
  close(): void;
}

export interface Sqlite {
  /** Opens an existing file read-write (a private copy: SQLite may roll back its journal or replay its WAL). */
  open(path: string): Promise<SqliteDatabase>;
}

/** A blob as a Buffer, whichever engine read it (node:sqlite gives a Uint8Array). */
export function asBuffer(value: unknown): Buffer | null {
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return null;
}
