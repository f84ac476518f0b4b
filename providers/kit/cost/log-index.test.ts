import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { packEntries, unpackEntries } from "./log-index.js";

describe("log index: a record's numbers as text", () => {
  it("gives back every whole number up to 2^53 - 1, and refuses text cut short or a number longer than that", () => {
    const numbers = fc.array(fc.oneof(fc.nat(300), fc.nat(), fc.integer({ min: 2 ** 31 - 2, max: 2 ** 32 + 2 }), fc.maxSafeNat()), {
      maxLength: 60,
    });
    fc.assert(
      fc.property(numbers, (list) => {
        expect(Array.from(unpackEntries(packEntries(Float64Array.from(list)))!)).toEqual(list);
      }),
      { numRuns: 2_000 },
    );
    expect(packEntries(Float64Array.from([0, 127, 128, 300]))).toBe(Buffer.from([0, 127, 128, 1, 172, 2]).toString("base64"));
    expect(unpackEntries(Buffer.from([0, 128]).toString("base64"))).toBeNull();
    expect(unpackEntries(Buffer.from([255, 255, 255, 255, 255, 255, 255, 255, 1]).toString("base64"))).toBeNull();
    expect(unpackEntries("")).toEqual(new Float64Array(0));
  });
});
