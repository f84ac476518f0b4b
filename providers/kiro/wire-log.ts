import {
  advice,
  isObject,
  MAX_DEPTH,
  nestsDeeperThan,
  QuotabarError,
  readTail,
  tryJson,
  type FetchContext,
  type JsonObject,
} from "../kit/index.js";
import type { KiroLogFile } from "./log-file.js";
import type { KiroLimits } from "./policy-log.js";
import { usageLimitsOf } from "./usage-limits.js";

/** An answer older than this is not shown: kiro-cli asks afresh instead (Kiro asks again as it is used). */
export const FRESH_MINUTES = 15;
const FRESH_MS = FRESH_MINUTES * 60_000;
/** Only the end of the log is read, however large it grew: an answer is a few kB and Kiro logs one per check. */
export const TAIL_BYTES = 4 << 20;
const COMMAND = "GetUsageLimitsCommand";
/** Lines looked at from the end, and the longest one parsed. */
const MAX_CANDIDATES = 64;
const MAX_LINE_CHARS = 512_000;
/** `2026-03-10 11:58:02.114 [info] {...}`: the local time the line was written. */
const LOGGED_AT = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,3}))?/;

const USE_KIRO = advice(
  `Use Kiro (it asks for usage as you work), or install kiro-cli: quotabar runs it when the log has no answer from the last ${FRESH_MINUTES} minutes.`,
);

/**
 * The last `GetUsageLimitsCommand` answer in Kiro's q-client.log, when it was logged in the last
 * 15 minutes. An older or missing one is an error that hands over to kiro-cli.
 */
export async function readKiroLog(log: KiroLogFile, context: FetchContext): Promise<KiroLimits> {
  const now = context.now().getTime();
  // a file last written before then cannot hold a newer answer: not even opened
  if (now - log.mtimeMs > FRESH_MS) throw notFresh(now - log.mtimeMs);
  const tail = await readTail(log.path, TAIL_BYTES).catch((error: unknown) => {
    throw new QuotabarError("not_configured", `Could not read Kiro's log: ${(error as NodeJS.ErrnoException).code ?? "unknown error"}`, {
      remedies: [advice("Check that your user can read Kiro's log folder."), USE_KIRO],
      cause: error,
    });
  });
  const answer = tail === null ? null : lastAnswer(tail.text);
  if (answer === null) throw new QuotabarError("not_configured", "Kiro's log holds no usage answer yet.", { remedies: [USE_KIRO] });
  if (Math.abs(now - answer.loggedAt) > FRESH_MS) throw notFresh(now - answer.loggedAt);
  return usageLimitsOf(answer.output);
}

/** From the end: the first line of the command that parses (a line still being written is passed over). */
function lastAnswer(text: string): { loggedAt: number; output: JsonObject } | null {
  const lines = text.split("\n");
  let looked = 0;
  for (let i = lines.length - 1; i >= 0 && looked < MAX_CANDIDATES; i--) {
    const line = lines[i]!;
    if (!line.includes(COMMAND)) continue;
    looked++;
    const brace = line.indexOf("{");
    const loggedAt = loggedAtOf(line);
    if (brace < 0 || loggedAt === null || line.length > MAX_LINE_CHARS) continue;
    const entry = tryJson(line.slice(brace));
    if (!isObject(entry) || nestsDeeperThan(entry, MAX_DEPTH) || entry.commandName !== COMMAND || !isObject(entry.output)) continue;
    return { loggedAt, output: entry.output };
  }
  return null;
}

function loggedAtOf(line: string): number | null {
  const match = LOGGED_AT.exec(line);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const at = new Date(year, month - 1, day, hour, minute, second, Number((match[7] ?? "0").padEnd(3, "0"))).getTime();
  return Number.isFinite(at) ? at : null;
}

function notFresh(ageMs: number): QuotabarError {
  const minutes = Math.round(ageMs / 60_000);
  const age = Math.abs(minutes) < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
  return new QuotabarError(
    "not_configured",
    `Kiro's last usage answer in its log is ${age} old; one from the last ${FRESH_MINUTES} minutes is needed.`,
    { remedies: [USE_KIRO] },
  );
}
