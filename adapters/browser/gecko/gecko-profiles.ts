import { readFile, readdir, stat } from "node:fs/promises";
import { basename, isAbsolute, join } from "node:path";
import { compareText } from "../../../domain/order.js";

/** One Gecko profile with a cookie database. */
export interface GeckoProfile {
  dir: string;
  label: string;
}

type Ini = Map<string, Map<string, string>>;
const MAX_INI_BYTES = 1024 * 1024;

/** `[Section]` and `key=value` lines; comments and anything else are skipped. */
export function parseIni(text: string): Ini {
  const sections: Ini = new Map();
  let current: Map<string, string> | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith(";") || line.startsWith("#")) continue;
    const section = /^\[([^\]]+)\]$/.exec(line);
    if (section?.[1]) {
      current = new Map();
      sections.set(section[1], current);
      continue;
    }
    const equals = line.indexOf("=");
    if (current && equals > 0) current.set(line.slice(0, equals).trim(), line.slice(equals + 1).trim());
  }
  return sections;
}

async function readIni(path: string): Promise<Ini | null> {
  try {
    if ((await stat(path)).size > MAX_INI_BYTES) return null;
    return parseIni(await readFile(path, "utf8"));
  } catch {
    return null;
  }
}

const hasCookies = (dir: string) =>
  stat(join(dir, "cookies.sqlite")).then(
    (info) => info.isFile(),
    () => false,
  );

/**
 * The profiles of one root, in the order to try them (credentials.md section 2.1): each install's
 * default (`[Install…] Default=` in profiles.ini and installs.ini), then the profile marked
 * `Default=1`, then every other; de-duplicated. Without a profiles.ini, every directory (or
 * `Profiles/` subdirectory) holding a cookies.sqlite, `default-release` ones first.
 */
export async function geckoProfiles(root: string): Promise<GeckoProfile[]> {
  const profilesIni = await readIni(join(root, "profiles.ini"));
  const installsIni = await readIni(join(root, "installs.ini"));
  const ordered: { path: string; label?: string }[] = [];
  if (profilesIni) {
    const resolve = (path: string) => (isAbsolute(path) ? path : join(root, path));
    const profiles = [...profilesIni.entries()].filter(([name]) => /^Profile\d+$/.test(name)).map(([, s]) => s);
    const labelOf = (path: string) => profiles.find((p) => p.get("Path") && resolve(p.get("Path") as string) === path)?.get("Name");
    const installDefaults = [
      ...[...profilesIni.entries()].filter(([name]) => name.startsWith("Install")).map(([, s]) => s.get("Default")),
      ...[...(installsIni?.values() ?? [])].map((s) => s.get("Default")),
    ].filter((p): p is string => typeof p === "string" && p !== "");
    for (const path of installDefaults) ordered.push({ path: resolve(path) });
    for (const p of [...profiles.filter((p) => p.get("Default") === "1"), ...profiles]) {
      const path = p.get("Path");
      if (path) ordered.push({ path: resolve(path) });
    }
    for (const entry of ordered) entry.label ??= labelOf(entry.path);
  } else {
    for (const base of [root, join(root, "Profiles")]) {
      const names = await readdir(base).catch(() => [] as string[]);
      const rank = (n: string) => (n.includes("default-release") ? 0 : n.includes("default") ? 1 : 2);
      for (const name of names.sort((a, b) => rank(a) - rank(b) || compareText(a, b))) ordered.push({ path: join(base, name) });
    }
  }
  const seen = new Set<string>();
  const found: GeckoProfile[] = [];
  for (const { path, label } of ordered) {
    if (seen.has(path)) continue;
    seen.add(path);
    if (await hasCookies(path)) found.push({ dir: path, label: label ?? basename(path) });
  }
  return found;
}
