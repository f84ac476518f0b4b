import { compareText, filesUnder, joinPath, subdirectories, type CredentialSource } from "../kit/index.js";
import { codexHome } from "./credentials.js";

/** A session log Codex wrote (`sessions/YYYY/MM/DD/rollout-*.jsonl`). */
export interface SessionLog {
  path: string;
  mtimeMs: number;
}

/** The newest logs looked at, at most: a fresh session may not have its first rate limits yet. */
export const MAX_LOGS = 5;
/** Day folders looked into: a session started yesterday may still be the one written today. */
const DAYS_WITH_LOGS = 2;
/** Day folders opened at most to find those (empty ones are passed over). */
const MAX_DAY_FOLDERS = 14;

const ROLLOUT = /^rollout-.*\.jsonl$/;

export const sessionsDirOf = (home: string) => joinPath(home, "sessions");

/** Numeric folder names (`2026`, `08`), newest first. */
async function datedFolders(dir: string, digits: number): Promise<string[]> {
  const pattern = new RegExp(`^\\d{${digits}}$`);
  return (await subdirectories(dir)).filter((name) => pattern.test(name)).sort((a, b) => compareText(b, a));
}

/** The newest day folders, newest first, found without listing older years and months than needed. */
async function* newestDays(sessions: string): AsyncGenerator<string> {
  for (const year of await datedFolders(sessions, 4)) {
    for (const month of await datedFolders(joinPath(sessions, year), 2)) {
      for (const day of await datedFolders(joinPath(sessions, year, month), 2)) yield joinPath(sessions, year, month, day);
    }
  }
}

/**
 * The newest session logs by modification time, from the newest day folders only: never every
 * session Codex ever wrote. Empty when there are none.
 */
export async function newestSessionLogs(sessions: string): Promise<SessionLog[]> {
  const found: SessionLog[] = [];
  let opened = 0;
  let withLogs = 0;
  for await (const day of newestDays(sessions)) {
    if (opened++ >= MAX_DAY_FOLDERS || withLogs >= DAYS_WITH_LOGS) break;
    const logs = await filesUnder([day], (name) => ROLLOUT.test(name));
    if (logs.length === 0) continue;
    withLogs++;
    found.push(...logs.map(({ path, mtimeMs }) => ({ path, mtimeMs })));
  }
  return found.sort((a, b) => b.mtimeMs - a.mtimeMs).slice(0, MAX_LOGS);
}

/** Codex's newest session logs under its home; null when it has written none. */
export const codexSessionLogs: CredentialSource<SessionLog[]> = {
  async resolve(context) {
    const logs = await newestSessionLogs(sessionsDirOf(codexHome(context)));
    return logs.length === 0 ? null : logs;
  },
};
