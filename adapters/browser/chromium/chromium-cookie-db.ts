import { asBuffer, type SqliteDatabase, type SqliteValue } from "../../sqlite/sqlite.js";

/** One row of Chromium's `cookies` table, as far as the reader needs it. */
export interface ChromiumRow {
  hostKey: string;
  name: string;
  /** Plaintext (old rows only); "" when the value is in `encrypted`. */
  value: string;
  encrypted: Buffer | null;
  path: string;
  /** Microseconds since 1601-01-01; 0 for a session cookie. */
  expiresUtc: bigint;
  secure: boolean;
  /** Microseconds since 1601-01-01, when the database says. */
  updatedUtc: bigint | null;
}

export interface ChromiumCookies {
  /** `meta.version`: 24 today (Chromium 156); from 24 the plaintext carries SHA-256(host_key). */
  version: number;
  rows: ChromiumRow[];
}

/** The newest schema this reader was checked against; a newer one is read the same way and said so. */
export const KNOWN_CHROMIUM_VERSION = 24;
/** Before this there was no `encrypted_value`. */
const OLDEST_CHROMIUM_VERSION = 7;
const MAX_ROWS = 5_000;

/** A cookie database that is not what the reader expects, in words for the notes. */
export class CookieStoreError extends Error {
  override name = "CookieStoreError";
}

const text = (v: SqliteValue | undefined) => (typeof v === "string" ? v : v === null || v === undefined ? "" : String(v));
const big = (v: SqliteValue | undefined) => (typeof v === "bigint" ? v : typeof v === "number" ? BigInt(Math.trunc(v)) : 0n);

/** Microseconds since 1601 (Windows FILETIME epoch) as an ISO time; null for 0 (a session cookie) or nonsense. */
export function fromChromiumTime(microseconds: bigint | null): string | null {
  if (microseconds === null || microseconds <= 0n) return null;
  const unixMs = Number(microseconds / 1000n - 11_644_473_600_000n);
  const date = new Date(unixMs);
  return Number.isFinite(date.getTime()) && unixMs > 0 ? date.toISOString() : null;
}

function schemaVersion(db: SqliteDatabase): number {
  let rows;
  try {
    rows = db.all("SELECT value FROM meta WHERE key = 'version'");
  } catch (error) {
    if (/no such table/i.test((error as Error).message))
      throw new CookieStoreError("not a Chromium cookie database (it has no meta table)");
    throw error;
  }
  const version = Number(text(rows[0]?.value));
  if (!Number.isInteger(version)) throw new CookieStoreError("not a Chromium cookie database (it has no schema version)");
  if (version < OLDEST_CHROMIUM_VERSION) throw new CookieStoreError(`cookie database version ${version} is too old to read`);
  return version;
}

/** The cookies of these stored domains (host_key), partitioned (CHIPS) cookies left out. */
export function readChromiumCookies(db: SqliteDatabase, hostKeys: readonly string[]): ChromiumCookies {
  const version = schemaVersion(db);
  const columns = new Set(db.all("PRAGMA table_info(cookies)").map((c) => text(c.name)));
  for (const needed of ["host_key", "name", "value", "encrypted_value", "path", "expires_utc"]) {
    if (!columns.has(needed)) throw new CookieStoreError(`the cookies table has no ${needed} column (version ${version})`);
  }
  const secure = columns.has("is_secure") ? "is_secure" : columns.has("secure") ? "secure" : "0";
  const updated = columns.has("last_update_utc") ? "last_update_utc" : columns.has("creation_utc") ? "creation_utc" : "NULL";
  const unpartitioned = columns.has("top_frame_site_key") ? "AND (top_frame_site_key IS NULL OR top_frame_site_key = '')" : "";
  if (hostKeys.length === 0) return { version, rows: [] };
  const rows = db.all(
    `SELECT host_key, name, value, encrypted_value, path, expires_utc, ${secure} AS secure, ${updated} AS updated
       FROM cookies WHERE host_key IN (${hostKeys.map(() => "?").join(", ")}) ${unpartitioned} LIMIT ${MAX_ROWS}`,
    hostKeys,
  );
  return {
    version,
    rows: rows.map((row) => ({
      hostKey: text(row.host_key),
      name: text(row.name),
      value: text(row.value),
      encrypted: asBuffer(row.encrypted_value),
      path: text(row.path) || "/",
      expiresUtc: big(row.expires_utc),
      secure: big(row.secure) !== 0n,
      updatedUtc: row.updated === null || row.updated === undefined ? null : big(row.updated),
    })),
  };
}
