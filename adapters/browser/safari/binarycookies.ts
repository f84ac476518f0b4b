import { open } from "node:fs/promises";
import { join } from "node:path";
import { parseError } from "../../../domain/errors.js";
import type { BrowserCookie } from "../../../ports/browser-credentials.js";
import { unreadableSafariData } from "./full-disk-access.js";

const MAGIC = "cook";
const PAGE_TAG = 0x00000100; // big-endian 00 00 01 00
const RECORD_HEADER = 56;
const SECURE = 0x1;
/** Seconds from the Unix epoch to Apple's reference date, 2001-01-01T00:00:00Z. */
const MAC_EPOCH_SECONDS = 978_307_200;
const LATEST_MS = Date.UTC(9999, 11, 31);
/** A cookie file holds a few thousand cookies; nothing real comes near this. */
export const MAX_COOKIE_FILE_BYTES = 64 * 1024 * 1024;

/** Where Safari keeps its cookies: the sandbox container (current Safari) first, then the pre-sandbox file. */
export function safariCookieFiles(home: string): { profile: string; path: string }[] {
  return [
    {
      profile: "Safari",
      path: join(home, "Library", "Containers", "com.apple.Safari", "Data", "Library", "Cookies", "Cookies.binarycookies"),
    },
    { profile: "Safari (Legacy)", path: join(home, "Library", "Cookies", "Cookies.binarycookies") },
  ];
}

/**
 * The cookies of one `Cookies.binarycookies` file; null when the file does not exist. Without Full
 * Disk Access the read is a "forbidden" error saying so; a damaged file is a parse error.
 */
export async function readSafariCookieFile(path: string): Promise<BrowserCookie[] | null> {
  let bytes: Uint8Array;
  try {
    const handle = await open(path, "r");
    try {
      const { size } = await handle.stat();
      if (size > MAX_COOKIE_FILE_BYTES) throw parseError(`${path} has ${size} bytes, more than a cookie file may have`);
      bytes = (await handle.readFile()).subarray(0, MAX_COOKIE_FILE_BYTES);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw unreadableSafariData(error, path);
  }
  return parseBinaryCookies(bytes, path);
}

/**
 * Parses the binarycookies layout: a big-endian header (`cook`, page count, page sizes), then pages
 * of little-endian cookie records. Every offset is checked against the page and the record that hold
 * it, so a damaged or hostile file is a parse error, never a read out of bounds. The trailer after
 * the pages (checksum, footer, property list) is not needed and not read.
 */
export function parseBinaryCookies(bytes: Uint8Array, source = "Cookies.binarycookies"): BrowserCookie[] {
  const fail = (why: string) => parseError(`${source} is not a readable Safari cookie file: ${why}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 8 || Buffer.from(bytes.subarray(0, 4)).toString("latin1") !== MAGIC) throw fail("it does not start with 'cook'");
  const pageCount = view.getUint32(4, false);
  if (pageCount > (bytes.length - 8) / 4) throw fail(`it declares ${pageCount} pages, more than it can hold`);
  let pageStart = 8 + 4 * pageCount;
  const cookies: BrowserCookie[] = [];
  for (let page = 0; page < pageCount; page++) {
    const pageSize = view.getUint32(8 + 4 * page, false);
    if (pageSize < 8 || pageSize > bytes.length - pageStart) throw fail(`page ${page} does not fit the file`);
    readPage(new DataView(bytes.buffer, bytes.byteOffset + pageStart, pageSize), (why) => fail(`page ${page}: ${why}`), cookies);
    pageStart += pageSize;
  }
  return cookies;
}

function readPage(page: DataView, fail: (why: string) => Error, into: BrowserCookie[]): void {
  if (page.getUint32(0, false) !== PAGE_TAG) throw fail("it does not start with the page tag");
  const count = page.getUint32(4, true);
  if (count > (page.byteLength - 8) / 4) throw fail(`it declares ${count} cookies, more than it can hold`);
  for (let i = 0; i < count; i++) {
    const offset = page.getUint32(8 + 4 * i, true);
    if (offset < 8 + 4 * count || offset > page.byteLength - RECORD_HEADER) throw fail(`cookie ${i} starts outside the page`);
    const size = page.getUint32(offset, true);
    if (size < RECORD_HEADER || size > page.byteLength - offset) throw fail(`cookie ${i} does not fit the page`);
    into.push(readRecord(new DataView(page.buffer, page.byteOffset + offset, size), (why) => fail(`cookie ${i}: ${why}`)));
  }
}

function readRecord(record: DataView, fail: (why: string) => Error): BrowserCookie {
  const text = (at: number, field: string) => {
    const start = record.getUint32(at, true);
    if (start < RECORD_HEADER || start >= record.byteLength) throw fail(`its ${field} lies outside the record`);
    const bytes = new Uint8Array(record.buffer, record.byteOffset + start, record.byteLength - start);
    const end = bytes.indexOf(0);
    if (end < 0) throw fail(`its ${field} is not terminated`);
    return Buffer.from(bytes.buffer, bytes.byteOffset, end).toString("utf8");
  };
  const flags = record.getUint32(8, true);
  const domain = text(16, "domain");
  const expiry = record.getFloat64(40, true);
  if (Number.isNaN(expiry)) throw fail("its expiry is not a number");
  let expiresAt: string | null = null;
  if (expiry > 0) {
    const ms = (expiry + MAC_EPOCH_SECONDS) * 1000;
    if (!(ms <= LATEST_MS)) throw fail("its expiry is past the year 9999");
    expiresAt = new Date(ms).toISOString();
  }
  return {
    name: text(20, "name"),
    value: text(28, "value"),
    domain,
    hostOnly: !domain.startsWith("."),
    path: text(24, "path"),
    expiresAt,
    secure: (flags & SECURE) !== 0,
  };
}
