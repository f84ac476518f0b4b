import { withoutEscapes } from "../../domain/untrusted-text.js";

/**
 * A vendor CLI's output as plain text, for parsing: what a terminal would show, minus the colours.
 * Escapes, controls and bidi controls removed; lines kept, with CRLF and a lone CR (a redrawn line)
 * as newlines. The same cleaning as every upstream string quotabar shows (domain/untrusted-text.ts).
 */
export const terminalText = (output: string): string => withoutEscapes(output);
