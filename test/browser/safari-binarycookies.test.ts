import fc from "fast-check";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { QuotabarError } from "../../domain/errors.js";
import { parseBinaryCookies, readSafariCookieFile, safariCookieFiles } from "../../adapters/browser/safari/binarycookies.js";
import { unreadableSafariData } from "../../adapters/browser/safari/full-disk-access.js";
import { safariCookieReader } from "../../adapters/browser/safari/safari-readers.js";

/** Seconds from the Unix epoch to 2001-01-01T00:00:00Z, Apple's reference date. */
const MAC_EPOCH = 978_307_200;
const macTime = (iso: string) => Date.parse(iso) / 1000 - MAC_EPOCH;

interface CookieSpec {
  domain: string;
  name: string;
  value: string;
  path?: string;
  /** 0x1 secure, 0x4 HttpOnly. */
  flags?: number;
  /** Mac absolute time; 0 or less is a session cookie. */
  expiry?: number;
  comment?: string;
}

/**
 * Cookies.binarycookies, written from the documented layout: a big-endian header (`cook`, page
 * count, page sizes), pages of little-endian records (tag 00 00 01 00, count, offsets, end marker),
 * then the trailer: a big-endian checksum (the sum of every fourth byte of each page), the footer
 * 07 17 20 05 00 00 00 4B and a property list.
 */
function writeBinaryCookies(pages: CookieSpec[][]): Buffer {
  const pageBuffers = pages.map((cookies) => {
    const records = cookies.map(writeRecord);
    const headerSize = 8 + 4 * records.length + 4;
    const header = Buffer.alloc(headerSize);
    header.writeUInt32BE(0x00000100, 0);
    header.writeUInt32LE(records.length, 4);
    let offset = headerSize;
    records.forEach((record, i) => {
      header.writeUInt32LE(offset, 8 + 4 * i);
      offset += record.length;
    });
    return Buffer.concat([header, ...records]);
  });
  const head = Buffer.alloc(8 + 4 * pages.length);
  head.write("cook", 0, "latin1");
  head.writeUInt32BE(pages.length, 4);
  pageBuffers.forEach((page, i) => head.writeUInt32BE(page.length, 8 + 4 * i));
  let checksum = 0;
  for (const page of pageBuffers) for (let i = 0; i < page.length; i += 4) checksum += page[i] as number;
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(checksum >>> 0, 0);
  const footer = Buffer.from("071720050000004b", "hex");
  const plist = Buffer.from("bplist00\u00d1\u0001\u0002", "latin1"); // a property list follows; its content is not read
  return Buffer.concat([head, ...pageBuffers, trailer, footer, plist]);
}

function writeRecord(cookie: CookieSpec): Buffer {
  const strings = [cookie.comment, cookie.domain, cookie.name, cookie.path ?? "/", cookie.value];
  const offsets: number[] = [];
  let at = 56;
  const bodies = strings.map((text) => {
    offsets.push(text === undefined ? 0 : at);
    if (text === undefined) return Buffer.alloc(0);
    const bytes = Buffer.concat([Buffer.from(text, "utf8"), Buffer.from([0])]);
    at += bytes.length;
    return bytes;
  });
  const header = Buffer.alloc(56);
  header.writeUInt32LE(56 + Buffer.concat(bodies).length, 0);
  header.writeUInt32LE(0, 4); // version
  header.writeUInt32LE(cookie.flags ?? 0, 8);
  header.writeUInt32LE(0, 12); // no port
  header.writeUInt32LE(offsets[1] as number, 16); // domain
  header.writeUInt32LE(offsets[2] as number, 20); // name
  header.writeUInt32LE(offsets[3] as number, 24); // path
  header.writeUInt32LE(offsets[4] as number, 28); // value
  header.writeUInt32LE(offsets[0] as number, 32); // comment (comes first when present)
  header.writeUInt32LE(0, 36); // comment URL
  header.writeDoubleLE(cookie.expiry ?? 0, 40);
  header.writeDoubleLE(macTime("2026-01-01T00:00:00Z"), 48); // creation
  return Buffer.concat([header, ...bodies]);
}

const KIMI: CookieSpec[] = [
  { domain: ".kimi.com", name: "kimi-auth", value: "eyJ.token.sig", flags: 0x5, expiry: macTime("2027-05-01T10:00:00Z") },
  { domain: "www.kimi.com", name: "session", value: "host-only", flags: 0x4, expiry: macTime("2027-01-01T00:00:00Z"), path: "/api" },
  { domain: ".kimi.com", name: "sess_only", value: "v", expiry: 0, comment: "a comment sits before the domain" },
];
const OTHER: CookieSpec[] = [
  { domain: ".example.com", name: "other", value: "café ✓", expiry: macTime("2026-12-31T23:59:59Z"), flags: 0x1 },
  { domain: "app.factory.ai", name: "expired", value: "old", expiry: macTime("2020-01-01T00:00:00Z") },
];

describe("Safari Cookies.binarycookies", () => {
  it("reads every cookie of every page: domain scope, flags, Mac-epoch expiry, session cookies", () => {
    expect(parseBinaryCookies(writeBinaryCookies([KIMI, OTHER]))).toEqual([
      {
        name: "kimi-auth",
        value: "eyJ.token.sig",
        domain: ".kimi.com",
        hostOnly: false,
        path: "/",
        expiresAt: "2027-05-01T10:00:00.000Z",
        secure: true,
      },
      {
        name: "session",
        value: "host-only",
        domain: "www.kimi.com",
        hostOnly: true,
        path: "/api",
        expiresAt: "2027-01-01T00:00:00.000Z",
        secure: false,
      },
      { name: "sess_only", value: "v", domain: ".kimi.com", hostOnly: false, path: "/", expiresAt: null, secure: false },
      {
        name: "other",
        value: "café ✓",
        domain: ".example.com",
        hostOnly: false,
        path: "/",
        expiresAt: "2026-12-31T23:59:59.000Z",
        secure: true,
      },
      {
        name: "expired",
        value: "old",
        domain: "app.factory.ai",
        hostOnly: true,
        path: "/",
        expiresAt: "2020-01-01T00:00:00.000Z",
        secure: false,
      },
    ]);
  });

  it("reads a file without the trailer, and an empty file of zero pages", () => {
    const full = writeBinaryCookies([KIMI]);
    const withoutTrailer = full.subarray(0, full.length - 4 - 8 - 11);
    expect(parseBinaryCookies(withoutTrailer)).toHaveLength(3);
    expect(parseBinaryCookies(writeBinaryCookies([]))).toEqual([]);
  });

  it("refuses damaged structure with a parse error that says what is wrong", () => {
    const file = writeBinaryCookies([KIMI]);
    const broken = (edit: (bytes: Buffer) => void) => {
      const bytes = Buffer.from(file);
      edit(bytes);
      return () => parseBinaryCookies(bytes);
    };
    expect(broken((b) => b.write("COOK", 0, "latin1"))).toThrow(/does not start with 'cook'/);
    expect(broken((b) => b.writeUInt32BE(0x40000000, 4))).toThrow(/declares 1073741824 pages/);
    expect(broken((b) => b.writeUInt32BE(0xffff, 8))).toThrow(/page 0 does not fit the file/);
    expect(broken((b) => b.writeUInt32BE(0x00000200, 12))).toThrow(/page 0: it does not start with the page tag/);
    expect(broken((b) => b.writeUInt32LE(1000, 16))).toThrow(/declares 1000 cookies/);
    expect(broken((b) => b.writeUInt32LE(5, 20))).toThrow(/cookie 0 starts outside the page/);
    const record = 12 + 8 + 4 * 3 + 4; // file header + page header + offsets + end marker
    expect(broken((b) => b.writeUInt32LE(40, record))).toThrow(/cookie 0 does not fit the page/);
    expect(broken((b) => b.writeUInt32LE(9999, record + 20))).toThrow(/cookie 0: its name lies outside the record/);
    expect(broken((b) => b.writeDoubleLE(Number.NaN, record + 40))).toThrow(/expiry is not a number/);
    expect(broken((b) => b.writeDoubleLE(1e300, record + 40))).toThrow(/past the year 9999/);
    expect(broken((b) => b.fill(0x41, record + 56, record + b.readUInt32LE(record)))).toThrow(/is not terminated/);
  });

  it("throws nothing but a parse error for any prefix of a file, and reads every prefix that keeps the pages", () => {
    const file = writeBinaryCookies([KIMI, OTHER]);
    const pagesEnd = file.length - 4 - 8 - 11;
    for (let cut = 0; cut < file.length; cut++) {
      const prefix = file.subarray(0, cut);
      if (cut >= pagesEnd) expect(parseBinaryCookies(prefix)).toHaveLength(5);
      else expect(() => parseBinaryCookies(prefix)).toThrow(expect.objectContaining({ code: "parse" }));
    }
  });

  const onlyParseErrors = (bytes: Uint8Array) => {
    try {
      for (const cookie of parseBinaryCookies(bytes)) expect(typeof cookie.name).toBe("string");
    } catch (error) {
      expect(error).toBeInstanceOf(QuotabarError);
      expect((error as QuotabarError).code).toBe("parse");
    }
  };

  it("never reads out of bounds on random bytes or random edits of a real layout (fuzz)", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 400 }), onlyParseErrors), { numRuns: 3000 });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (tail) => onlyParseErrors(Buffer.concat([Buffer.from("cook"), tail]))),
      { numRuns: 3000 },
    );
    const file = writeBinaryCookies([KIMI, OTHER]);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(file.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
        (edits) => {
          const bytes = Buffer.from(file);
          for (const [at, value] of edits) bytes[at] = value;
          onlyParseErrors(bytes);
        },
      ),
      { numRuns: 5000 },
    );
  });
});

describe("Safari's cookie files", () => {
  const home = mkdtempSync(join(tmpdir(), "quotabar-safari-home-"));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const [container, legacy] = safariCookieFiles(home);
  const put = (path: string, bytes: Buffer) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
  };

  it("knows both places: the sandbox container first, then the pre-sandbox file", () => {
    expect(container).toEqual({
      profile: "Safari",
      path: join(home, "Library/Containers/com.apple.Safari/Data/Library/Cookies/Cookies.binarycookies"),
    });
    expect(legacy).toEqual({ profile: "Safari (Legacy)", path: join(home, "Library/Cookies/Cookies.binarycookies") });
  });

  it("reads a file, and gives null for one that does not exist", async () => {
    expect(await readSafariCookieFile(join(home, "nowhere", "Cookies.binarycookies"))).toBeNull();
    put(join(home, "one", "Cookies.binarycookies"), writeBinaryCookies([OTHER]));
    expect(await readSafariCookieFile(join(home, "one", "Cookies.binarycookies"))).toHaveLength(2);
  });

  it("says Full Disk Access is missing when macOS refuses the read", () => {
    const refused = Object.assign(new Error("EPERM: operation not permitted, open '…'"), { code: "EPERM" });
    const error = unreadableSafariData(refused, container?.path as string) as QuotabarError;
    expect(error.code).toBe("forbidden");
    expect(error.message).toContain("Full Disk Access");
    expect(error.remedies).toEqual([{ kind: "advice", text: expect.stringContaining("Full Disk Access") }]);
    const other = new Error("EIO");
    expect(unreadableSafariData(other, "x")).toBe(other);
  });

  it("answers a cookie query from both files: kept when sent to the host, expired ones dropped, one note per file", async () => {
    const reader = safariCookieReader({ home, now: () => new Date("2026-06-01T00:00:00Z") });
    const none = await reader.read({ hosts: ["www.kimi.com"], browsers: ["safari"] }, { interactive: false });
    expect(none).toEqual({
      candidates: [],
      notes: [{ browser: "safari", outcome: "not-installed", detail: "Safari has no cookie file here" }],
    });

    put(container?.path as string, writeBinaryCookies([KIMI]));
    put(legacy?.path as string, writeBinaryCookies([OTHER]));
    const found = await reader.read({ hosts: ["www.kimi.com"], browsers: ["safari"] }, { interactive: false });
    expect(found.candidates).toEqual([{ browser: "safari", profile: "Safari", cookies: parseBinaryCookies(writeBinaryCookies([KIMI])) }]);
    expect(found.notes.map((n) => [n.profile, n.outcome, n.cookieNames])).toEqual([
      ["Safari", "found", ["kimi-auth", "session", "sess_only"]],
      ["Safari (Legacy)", "nothing", undefined],
    ]);

    const factory = await reader.read({ hosts: ["app.factory.ai"], browsers: ["safari"] }, { interactive: false });
    expect(factory.candidates).toEqual([]); // its only cookie expired in 2020

    put(container?.path as string, Buffer.from("cook\u0000\u0000\u0000\u0009"));
    const damaged = await reader.read({ hosts: ["www.kimi.com"], browsers: ["safari"] }, { interactive: false });
    expect(damaged.notes[0]).toMatchObject({
      profile: "Safari",
      outcome: "error",
      detail: expect.stringContaining("not a readable Safari cookie file"),
    });
  });
});
