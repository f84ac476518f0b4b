/** Line icons standing in for Raycast's `Icon.*` in the preview (16×16, drawn in currentColor). */
const PATHS: Record<string, string> = {
  Warning:
    '<path d="M8 2.2 14.5 13.5H1.5Z" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linejoin="round"/><path d="M8 6.3v3.6" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"/><circle cx="8" cy="11.7" r=".9" fill="currentColor"/>',
  LightBulb:
    '<path d="M5.2 9.6A4.2 4.2 0 1 1 10.8 9.6c-.7.6-1 1.2-1 2H6.2c0-.8-.3-1.4-1-2Z" fill="none" stroke="currentColor" stroke-width="1.3"/><path d="M6.4 13.6h3.2" stroke="currentColor" stroke-width="1.3" stroke-linecap="round"/>',
  Clock:
    '<circle cx="8" cy="8" r="6.2" fill="none" stroke="currentColor" stroke-width="1.3"/><path d="M8 4.6V8l2.4 1.6" fill="none" stroke="currentColor" stroke-width="1.3" stroke-linecap="round"/>',
  ExclamationMark:
    '<circle cx="8" cy="8" r="6.2" fill="none" stroke="currentColor" stroke-width="1.3"/><path d="M8 4.6v4" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"/><circle cx="8" cy="11" r=".9" fill="currentColor"/>',
  Globe:
    '<circle cx="8" cy="8" r="6.2" fill="none" stroke="currentColor" stroke-width="1.3"/><ellipse cx="8" cy="8" rx="2.6" ry="6.2" fill="none" stroke="currentColor" stroke-width="1.1"/><path d="M1.9 8h12.2" stroke="currentColor" stroke-width="1.1"/>',
  Heartbeat:
    '<path d="M1.5 8.5h3l1.6-3.8 2.6 7 1.8-4.2h4" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linejoin="round" stroke-linecap="round"/>',
  Gauge:
    '<path d="M2.3 11.6a6 6 0 1 1 11.4 0" fill="none" stroke="currentColor" stroke-width="1.3" stroke-linecap="round"/><path d="m8 9.6 2.6-3.4" stroke="currentColor" stroke-width="1.4" stroke-linecap="round"/><circle cx="8" cy="9.8" r="1.1" fill="currentColor"/>',
  Hourglass:
    '<path d="M4 1.9h8M4 14.1h8M4.8 2v2.2c0 1.6 3.2 2.6 3.2 3.8s-3.2 2.2-3.2 3.8V14M11.2 2v2.2c0 1.6-3.2 2.6-3.2 3.8s3.2 2.2 3.2 3.8V14" fill="none" stroke="currentColor" stroke-width="1.3" stroke-linecap="round" stroke-linejoin="round"/>',
  Circle: '<circle cx="8" cy="8" r="5.8" fill="none" stroke="currentColor" stroke-width="1.3" stroke-dasharray="2.2 1.6"/>',
  ArrowClockwise:
    '<path d="M13 8a5 5 0 1 1-1.6-3.7" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linecap="round"/><path d="M12.2 1.8v2.9H9.3" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linecap="round" stroke-linejoin="round"/>',
  List: '<path d="M5.5 4h8M5.5 8h8M5.5 12h8" stroke="currentColor" stroke-width="1.4" stroke-linecap="round"/><circle cx="2.8" cy="4" r=".9" fill="currentColor"/><circle cx="2.8" cy="8" r=".9" fill="currentColor"/><circle cx="2.8" cy="12" r=".9" fill="currentColor"/>',
  Gear: '<circle cx="8" cy="8" r="2.2" fill="none" stroke="currentColor" stroke-width="1.3"/><path d="M8 1.6v2M8 12.4v2M1.6 8h2M12.4 8h2M3.5 3.5l1.4 1.4M11.1 11.1l1.4 1.4M3.5 12.5l1.4-1.4M11.1 4.9l1.4-1.4" stroke="currentColor" stroke-width="1.4" stroke-linecap="round"/>',
  Key: '<circle cx="5" cy="10.5" r="3" fill="none" stroke="currentColor" stroke-width="1.3"/><path d="M7.2 8.3 13.5 2M11.2 4.3l1.8 1.8M9.6 5.9l1.4 1.4" stroke="currentColor" stroke-width="1.3" stroke-linecap="round"/>',
  Person:
    '<circle cx="8" cy="5.3" r="2.8" fill="none" stroke="currentColor" stroke-width="1.3"/><path d="M2.6 14c.5-2.8 2.7-4.3 5.4-4.3s4.9 1.5 5.4 4.3" fill="none" stroke="currentColor" stroke-width="1.3" stroke-linecap="round"/>',
  MagnifyingGlass:
    '<circle cx="7" cy="7" r="4.6" fill="none" stroke="currentColor" stroke-width="1.4"/><path d="m10.4 10.4 3.6 3.6" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"/>',
  CopyClipboard:
    '<rect x="4.5" y="4.5" width="8.5" height="9.5" rx="1.5" fill="none" stroke="currentColor" stroke-width="1.3"/><path d="M3 11V3.5A1.5 1.5 0 0 1 4.5 2H10" fill="none" stroke="currentColor" stroke-width="1.3"/>',
  Terminal:
    '<rect x="1.8" y="2.8" width="12.4" height="10.4" rx="1.8" fill="none" stroke="currentColor" stroke-width="1.3"/><path d="m4.6 6.4 2 1.6-2 1.6M8 10h3.4" fill="none" stroke="currentColor" stroke-width="1.3" stroke-linecap="round"/>',
};

export function glyph(name: string, color = "currentColor", size = 16): string {
  const body = PATHS[name] ?? PATHS.Circle!;
  return `<svg class="glyph" width="${size}" height="${size}" viewBox="0 0 16 16" style="color:${color}">${body}</svg>`;
}
