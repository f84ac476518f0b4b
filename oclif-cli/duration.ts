const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `500ms`, `30s`, `5m`, `2h`, `1d`, or seconds alone, in milliseconds; null for anything else. */
export function parseDuration(text: string): number | null {
  const match = /^(\d{1,7}) ?(ms|[smhd]?)$/i.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * (UNIT_MS[(match[2] || "s").toLowerCase()] as number);
}

/** 300000 -> "5m", 90000 -> "90s": the shortest whole unit, for messages. */
export function formatDuration(ms: number): string {
  for (const unit of ["d", "h", "m", "s"]) {
    const size = UNIT_MS[unit] as number;
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
