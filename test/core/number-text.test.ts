import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dollars, groupedNumber, readableAmount } from "../../domain/number-text.js";

describe("groupedNumber: en-US grouping without ICU", () => {
  it("writes what Intl.NumberFormat('en-US') writes", () => {
    for (const digits of [0, 1, 2]) {
      const intl = new Intl.NumberFormat("en-US", { maximumFractionDigits: digits });
      fc.assert(
        fc.property(
          fc.oneof(
            fc.integer({ min: -1e12, max: 1e12 }),
            fc.double({ min: -1e9, max: 1e9, noNaN: true }),
            fc.integer({ min: -99999, max: 99999 }).map((n) => n / 100),
          ),
          (value) => {
            const expected = intl.format(value);
            expect(groupedNumber(value, digits)).toBe(expected === "-0" ? "0" : expected);
          },
        ),
        { numRuns: 500 },
      );
    }
  });

  it("groups, trims trailing zeros and rounds half away from zero", () => {
    expect(groupedNumber(1234567)).toBe("1,234,567");
    expect(groupedNumber(1000, 2)).toBe("1,000");
    expect(groupedNumber(112.5, 1)).toBe("112.5");
    expect(groupedNumber(0.15, 1)).toBe("0.2");
    expect(groupedNumber(-2.5)).toBe("-3");
    expect(groupedNumber(999.96, 1)).toBe("1,000");
    expect(groupedNumber(-0.01)).toBe("0");
  });
});

describe("dollars", () => {
  it("writes cents, groups thousands, rounds half a cent up and keeps the sign", () => {
    expect(dollars(0)).toBe("$0.00");
    expect(dollars(22.4)).toBe("$22.40");
    expect(dollars(1234.5)).toBe("$1,234.50");
    expect(dollars(0.015)).toBe("$0.02");
    expect(dollars(1_000_000)).toBe("$1,000,000.00");
    expect(dollars(-3)).toBe("-$3.00");
    expect(dollars(-0.001)).toBe("$0.00");
  });
});

describe("numbers no quota has (issue 30): never an exponent form, never NaN", () => {
  it("writes every digit from 10^21 on, as Intl does, in the grouped, compact and money forms", () => {
    const intl = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
    fc.assert(
      fc.property(fc.double({ min: 1e20, max: 1e300, noNaN: true }), (value) => {
        expect(groupedNumber(value)).toBe(intl.format(value));
        expect(groupedNumber(-value)).toBe(intl.format(-value));
      }),
      { numRuns: 300 },
    );
    expect(groupedNumber(1e21)).toBe("1,000,000,000,000,000,000,000");
    expect(dollars(1e22 + 0.84)).toBe("$10,000,000,000,000,000,000,000.00");
    expect(dollars(-1e21)).toBe("-$1,000,000,000,000,000,000,000.00");
    expect(readableAmount(1e299)).toMatch(/^100(,000)+B$/);
    for (const value of [1e21, 1e22, 1.7976931348623157e308, 1e299 / 1e9]) {
      for (const text of [groupedNumber(value, 2), dollars(value), readableAmount(value)]) expect(text).not.toMatch(/e|NaN|Infinity/i);
    }
  });

  it("writes NaN and Infinity as a question mark, not as words", () => {
    for (const value of [NaN, Infinity, -Infinity]) {
      expect(groupedNumber(value)).toBe("?");
      expect(dollars(value)).toBe("?");
      expect(readableAmount(value)).toBe("?");
    }
  });
});
