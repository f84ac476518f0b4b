import type { BrowserCookie } from "../../../ports/browser-credentials.js";
import type { SqliteDatabase, SqliteValue } from "../../sqlite/sqlite.js";
import { CookieStoreError } from "../chromium/chromium-cookie-db.js";

/** From this `PRAGMA user_version` (Firefox 142) `moz_cookies.expiry` is in milliseconds, before it in seconds. */
export const EXPIRY_IN_MS_FROM_VERSION = 16;
/** The newest schema this reader was checked against (Firefox ESR 153). */
export const KNOWN_GECKO_VERSION = 17;
const MAX_ROWS = 5_000;
/** No cookie expires before 1973 in milliseconds, and none after 5138 in seconds: the second guard. */
const SURELY_MS = 1e11;

const text = (v: SqliteValue | undefined) => (typeof v === "string" ? v : v === null || v === undefined ? "" : String(v));
const num = (v: SqliteValue | undefined) => (typeof v === "bigint" ? Number(v) : typeof v === "number" ? v : 0);

/** `expiry` as an ISO time; null for a session cookie (0) or a value no date can hold. */
export function fromGeckoExpiry(expiry: number, userVersion: number): string | null {
  if (!(expiry > 0)) return null;
  const ms = userVersion >= EXPIRY_IN_MS_FROM_VERSION || expiry > SURELY_MS ? expiry : expiry * 1000;
  const date = new Date(ms);
  return Number.isFinite(date.getTime()) ? date.toISOString() : null;
}

/** Microseconds since the epoch (creationTime, updateTime) as an ISO time. */
const fromMicros = (us: number) => (us > 0 && Number.isFinite(new Date(us / 1000).getTime()) ? new Date(us / 1000).toISOString() : null);

/** The cookies of these stored hosts, normal browsing only (no container, partitioned or private rows). */
export function readGeckoCookies(db: SqliteDatabase, hosts: readonly string[]): { version: number; cookies: BrowserCookie[] } {
  let columns: Set<string>;
  try {
    columns = new Set(db.all("PRAGMA table_info(moz_cookies)").map((c) => text(c.name)));
  } catch (error) {
    throw new CookieStoreError(`not a cookie database: ${(error as Error).message}`);
  }
  if (columns.size === 0) throw new CookieStoreError("not a Firefox cookie database (it has no moz_cookies table)");
  for (const needed of ["host", "name", "value", "path", "expiry"]) {
    if (!columns.has(needed)) throw new CookieStoreError(`the moz_cookies table has no ${needed} column`);
  }
  const version = num(db.all("PRAGMA user_version")[0]?.user_version);
  if (hosts.length === 0) return { version, cookies: [] };
  const updated = columns.has("updateTime") ? "updateTime" : columns.has("creationTime") ? "creationTime" : "0";
  const secure = columns.has("isSecure") ? "isSecure" : "0";
  const normal = columns.has("originAttributes") ? "AND originAttributes = ''" : "";
  const rows = db.all(
    `SELECT host, name, value, path, expiry, ${secure} AS secure, ${updated} AS updated
       FROM moz_cookies WHERE host IN (${hosts.map(() => "?").join(", ")}) ${normal} LIMIT ${MAX_ROWS}`,
    hosts,
  );
  return {
    version,
    cookies: rows.map((row) => {
      const host = text(row.host);
      return {
        name: text(row.name),
        value: text(row.value),
        domain: host,
        hostOnly: !host.startsWith("."),
        path: text(row.path) || "/",
        expiresAt: fromGeckoExpiry(num(row.expiry), version),
        secure: num(row.secure) !== 0,
        updatedAt: fromMicros(num(row.updated)),
      };
    }),
  };
}
