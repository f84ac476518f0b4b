/**
 * "1,234,567.5": a number with its thousands grouped, as `toLocaleString("en-US")` writes it, without
 * ICU. Touching Intl pulls ~8 MiB of locale data into a process that otherwise never needs it, and
 * every grouped number quotabar writes is en-US.
 */
export function groupedNumber(value: number, maxFractionDigits = 0): string {
  if (!Number.isFinite(value)) return NO_NUMBER;
  // rounded on the shortest decimal text of the value (as Intl does), not on its binary expansion
  const rounded = Number(`${Math.round(Number(`${Math.abs(value)}e${maxFractionDigits}`))}e-${maxFractionDigits}`);
  const [whole = "0", fraction = ""] = fixed(Number.isFinite(rounded) ? rounded : Math.abs(value), maxFractionDigits).split(".");
  let end = fraction.length;
  while (end > 0 && fraction[end - 1] === "0") end--;
  let grouped = "";
  for (let i = whole.length; i > 0; i -= 3) grouped = whole.slice(Math.max(0, i - 3), i) + (grouped ? `,${grouped}` : "");
  const text = end > 0 ? `${grouped}.${fraction.slice(0, end)}` : grouped;
  return value < 0 && text !== "0" ? `-${text}` : text;
}

/** What a number that is not one (NaN, Infinity) is written as: never "NaN" or "$Infinity.NaN". */
const NO_NUMBER = "?";

/**
 * `toFixed`, but past 2^53 (from 10^21 toFixed writes "1e+21") the digits as Intl writes them: the
 * shortest decimal of the value, then zeros. Such a number has no fraction.
 */
function fixed(abs: number, fractionDigits: number): string {
  if (abs <= Number.MAX_SAFE_INTEGER) return abs.toFixed(fractionDigits);
  const [mantissa = "0", exponent = "0"] = abs.toExponential().split("e");
  const digits = mantissa.replace(".", "");
  return digits + "0".repeat(Number(exponent) - (digits.length - 1));
}

/** 1,215 · 112.5 · 450K · 23.5M: an amount as every view writes it (a meter and its detail alike). */
export function readableAmount(value: number): string {
  if (!Number.isFinite(value)) return NO_NUMBER;
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${groupedNumber(value / 1e9, 1)}B`;
  if (abs >= 1e6) return `${groupedNumber(value / 1e6, 1)}M`;
  if (abs >= 1e5) return `${groupedNumber(value / 1e3, 1)}K`;
  return groupedNumber(value, Number.isInteger(value) ? 0 : 1);
}

/** "$1,234.50", "-$3.00": US dollars to the cent, grouped (half a cent rounds up, as people expect). */
export function dollars(value: number): string {
  if (!Number.isFinite(value)) return NO_NUMBER;
  const cents = Math.round(Math.abs(value) * 100 + 1e-9);
  // past 2^53 cents a double holds no cents (1e22 % 100 is noise): whole dollars then
  const exact = Number.isSafeInteger(cents);
  const whole = exact ? Math.trunc(cents / 100) : Math.round(Math.abs(value));
  const text = `$${groupedNumber(whole)}.${exact ? String(cents % 100).padStart(2, "0") : "00"}`;
  return value < 0 && cents > 0 ? `-${text}` : text;
}
