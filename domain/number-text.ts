/**
 * "1,234,567.5": a number with its thousands grouped, as `toLocaleString("en-US")` writes it, without
 * ICU. Touching Intl pulls ~8 MiB of locale data into a process that otherwise never needs it, and
 * every grouped number quotabar writes is en-US.
 */
export function groupedNumber(value: number, maxFractionDigits = 0): string {
  if (!Number.isFinite(value)) return String(value);
  // rounded on the shortest decimal text of the value (as Intl does), not on its binary expansion
  const rounded = Number(`${Math.round(Number(`${Math.abs(value)}e${maxFractionDigits}`))}e-${maxFractionDigits}`);
  const [whole = "0", fraction = ""] = (Number.isFinite(rounded) ? rounded : Math.abs(value)).toFixed(maxFractionDigits).split(".");
  let end = fraction.length;
  while (end > 0 && fraction[end - 1] === "0") end--;
  let grouped = "";
  for (let i = whole.length; i > 0; i -= 3) grouped = whole.slice(Math.max(0, i - 3), i) + (grouped ? `,${grouped}` : "");
  const text = end > 0 ? `${grouped}.${fraction.slice(0, end)}` : grouped;
  return value < 0 && text !== "0" ? `-${text}` : text;
}
