import { describe, expect, it } from "vitest";
import { monthMinutesBefore } from "../../domain/calendar-month.js";

const DAY = 1_440;

describe("the calendar month that ends at a reset", () => {
  it("is the time since the same day and hour a month earlier", () => {
    expect(monthMinutesBefore("2026-12-01T00:00:00.000Z")).toBe(30 * DAY);
    expect(monthMinutesBefore("2026-03-01T00:00:00Z")).toBe(28 * DAY);
    expect(monthMinutesBefore("2028-03-01T00:00:00Z")).toBe(29 * DAY);
    expect(monthMinutesBefore("2027-01-15T09:30:00Z")).toBe(31 * DAY);
  });

  it("goes back from the 31st to the last day of a shorter month", () => {
    expect(monthMinutesBefore("2026-03-31T00:00:00Z")).toBe(31 * DAY); // from 28 February
    expect(monthMinutesBefore("2026-05-31T12:00:00Z")).toBe(31 * DAY); // from 30 April
  });

  it("has no length without a reset time", () => {
    expect(monthMinutesBefore(null)).toBeNull();
    expect(monthMinutesBefore("soon")).toBeNull();
  });
});
