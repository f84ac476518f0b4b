/** A vendor CLI's output as plain text, for parsing: what a terminal would show, minus the colours. */

/* eslint-disable no-control-regex -- terminal escapes are control characters */
// Linear patterns: a CSI sequence (colours, cursor moves), an OSC sequence (title, hyperlink) up to BEL or ST,
// any other escape (ESC ( B, ESC =, ESC 7) or stray ESC, then the remaining controls but tab and newline.
const CSI = /\x1b\[[0-?]*[ -/]*[@-~]/g;
const OSC = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g;
const OTHER_ESCAPE = /\x1b[ -/]*[0-~]?/g;
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;
/* eslint-enable no-control-regex */

/** Escapes and controls removed; lines kept, with CRLF and a lone CR (a redrawn line) as newlines. */
export function terminalText(output: string): string {
  return output.replace(CSI, "").replace(OSC, "").replace(OTHER_ESCAPE, "").replace(/\r\n?/g, "\n").replace(CONTROL, "");
}
