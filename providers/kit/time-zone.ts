import { readlinkSync } from "node:fs";

/** `Area/Location` (or `UTC`): an IANA zone name, as a header or a cache key may carry it. */
const ZONE = /^(?:UTC|[A-Za-z][A-Za-z_+-]*(?:\/[A-Za-z0-9_+-]+){1,2})$/;

/**
 * The IANA time zone this process's dates are in ("Europe/Berlin"): $TZ when it names one, else
 * where /etc/localtime links into zoneinfo (Linux and macOS), else Intl. The process's own $TZ (not
 * a core's environment), because it is the zone `Date` computes local days in. Intl is the last
 * resort because asking it loads ICU's locale data (~8 MiB of memory) into a run that never needs it.
 */
export function localTimeZone(): string {
  const tz = process.env.TZ?.replace(/^:/, "").trim();
  if (tz) return ZONE.test(tz) ? tz : intlZone(); // a POSIX rule ("CET-1CEST"): Intl reads it as Date does
  try {
    const link = /\/zoneinfo\/(.+)$/.exec(readlinkSync("/etc/localtime"))?.[1];
    if (link && ZONE.test(link)) return UTC_ALIASES.has(link) ? "UTC" : link;
  } catch {
    // no link (a copied file, Windows): Intl knows
  }
  return intlZone();
}

/** Links Debian and others use for UTC, which Intl calls "UTC". */
const UTC_ALIASES = new Set(["Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "Etc/GMT"]);

const intlZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";

/** Minutes `zone` is ahead of UTC at `at` (an unknown zone name: the machine's zone). Asks Intl: only for a zone an upstream names. */
export function zoneOffsetMinutes(zone: string | undefined, at: Date): number {
  const fields = {
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  } as const;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", { ...fields, timeZone: zone });
  } catch {
    format = new Intl.DateTimeFormat("en-US", fields); // an unknown zone name: the machine's zone
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}
