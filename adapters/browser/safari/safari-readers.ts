import { stat } from "node:fs/promises";
import type {
  BrowserCookieReader,
  CookieCandidate,
  LocalStorageEntry,
  LocalStorageReader,
  LookupNote,
} from "../../../ports/browser-credentials.js";
import type { Sqlite } from "../../sqlite/sqlite.js";
import { keptFor } from "../cookie-jar.js";
import { readSafariCookieFile, safariCookieFiles } from "./binarycookies.js";
import { readSafariLocalStorage, safariWebsiteDataRoot } from "./local-storage.js";

const SAFARI = "safari";

/** Safari's cookies behind the reader port: each cookie file a profile ("Safari", "Safari (Legacy)"), never a prompt. */
export function safariCookieReader(options: { home: string; now: () => Date }): BrowserCookieReader {
  return {
    async read(query, lookup) {
      const candidates: CookieCandidate[] = [];
      const notes: LookupNote[] = [];
      let files = 0;
      for (const { profile, path } of safariCookieFiles(options.home)) {
        lookup.signal?.throwIfAborted();
        const note = (outcome: LookupNote["outcome"], detail: string, cookieNames?: string[]) =>
          notes.push({ browser: SAFARI, profile, outcome, detail, ...(cookieNames ? { cookieNames } : {}) });
        let cookies;
        try {
          cookies = await readSafariCookieFile(path);
        } catch (error) {
          files++;
          note("error", (error as Error).message);
          continue;
        }
        if (!cookies) continue;
        files++;
        const kept = keptFor(cookies, query, options.now());
        if (kept.length === 0) note("nothing", `no usable cookie for ${query.hosts.join(", ")}`);
        else {
          candidates.push({ browser: SAFARI, profile, cookies: kept });
          note(
            "found",
            `${kept.length} cookie(s) for ${query.hosts.join(", ")}`,
            kept.map((c) => c.name),
          );
        }
      }
      if (files === 0) notes.push({ browser: SAFARI, outcome: "not-installed", detail: "Safari has no cookie file here" });
      return { candidates, notes };
    },
  };
}

/** Safari's Local Storage behind the reader port, through the composition's SQLite engine. */
export function safariLocalStorageReader(options: { home: string; sqlite: Sqlite }): LocalStorageReader {
  return {
    async read(query, lookup) {
      const profile = "Safari";
      const root = safariWebsiteDataRoot(options.home);
      const absent = await stat(root).then(
        () => false,
        (error: NodeJS.ErrnoException) => error.code === "ENOENT", // EPERM: there, behind Full Disk Access
      );
      if (absent) return { entries: [], notes: [{ browser: SAFARI, outcome: "not-installed", detail: "Safari has no website data here" }] };
      try {
        const items = await readSafariLocalStorage(
          root,
          { origins: query.origins, ...(query.keys ? { keys: query.keys } : {}), ...(lookup.signal ? { signal: lookup.signal } : {}) },
          options.sqlite,
        );
        const entries: LocalStorageEntry[] = items.map((item) => ({ browser: SAFARI, profile, ...item }));
        const note: LookupNote =
          entries.length > 0
            ? {
                browser: SAFARI,
                profile,
                outcome: "found",
                detail: `${entries.length} Local Storage item(s)`,
                cookieNames: entries.map((e) => e.key),
              }
            : { browser: SAFARI, profile, outcome: "nothing", detail: `no Local Storage item for ${query.origins.join(", ")}` };
        return { entries, notes: [note] };
      } catch (error) {
        if (lookup.signal?.aborted) throw error;
        return { entries: [], notes: [{ browser: SAFARI, profile, outcome: "error", detail: (error as Error).message }] };
      }
    },
  };
}
