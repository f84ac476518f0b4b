import { afterEach, describe, expect, it } from "vitest";
import { localTimeZone } from "./time-zone.js";

const original = process.env.TZ;
afterEach(() => {
  if (original === undefined) delete process.env.TZ;
  else process.env.TZ = original;
});

describe("localTimeZone: the zone of this process's dates, without asking ICU first", () => {
  it("takes $TZ when it names a zone", () => {
    for (const [tz, zone] of [
      ["Europe/Berlin", "Europe/Berlin"],
      [":America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"],
      ["UTC", "UTC"],
    ]) {
      process.env.TZ = tz;
      expect(localTimeZone()).toBe(zone);
    }
  });

  it("leaves a POSIX rule (or anything not a zone name) in $TZ to Intl", () => {
    for (const tz of ["CET-1CEST", "bad zone; rm -rf /"]) {
      process.env.TZ = tz;
      // Intl names no zone for a bogus $TZ: UTC then, as Date computes in
      expect(localTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC");
    }
  });

  it("without $TZ, agrees with what Intl says for this machine", () => {
    delete process.env.TZ;
    expect(localTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});
