// Preloaded (node --import) into a quotabar process by test/cli/no-icu.test.ts: writes to
// $ICU_TRAP_FILE a line for every way into ICU's locale data (Intl services, the locale-aware
// String, Number and Date methods), with where it was called from.
import { appendFileSync } from "node:fs";

const file = process.env.ICU_TRAP_FILE;
const record = (name) => {
  const where = (new Error().stack ?? "")
    .split("\n")
    .slice(3, 6)
    .map((l) => l.trim())
    .join(" < ");
  if (file) appendFileSync(file, `${name}: ${where}\n`);
};
for (const name of [
  "DateTimeFormat",
  "NumberFormat",
  "Collator",
  "PluralRules",
  "RelativeTimeFormat",
  "ListFormat",
  "Segmenter",
  "DisplayNames",
]) {
  const original = Intl[name];
  Intl[name] = new Proxy(original, {
    construct: (target, args) => (record(`Intl.${name}`), new target(...args)),
    apply: (target, self, args) => (record(`Intl.${name}`), Reflect.apply(target, self, args)),
  });
}
for (const [proto, method] of [
  [String.prototype, "localeCompare"],
  [Number.prototype, "toLocaleString"],
  [Date.prototype, "toLocaleString"],
  [Date.prototype, "toLocaleDateString"],
  [Date.prototype, "toLocaleTimeString"],
]) {
  const original = proto[method];
  proto[method] = function (...args) {
    record(method);
    return original.apply(this, args);
  };
}
