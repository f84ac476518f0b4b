import { machineWide, advice, notConfigured, ownProcesses, type CredentialSource, type RunningProcess } from "../kit/index.js";

/** Antigravity's running language server as its command line describes it. */
export interface LanguageServer {
  pid: number;
  /** `--csrf_token`: sent as a header to every call; null when the process carries none. */
  csrfToken: string | null;
  /** `--extension_server_port`: the plain-http fallback. */
  extensionServerPort: number | null;
  /** `--extension_server_csrf_token` (newer builds): the token of the fallback port. */
  extensionCsrfToken: string | null;
}

export const SERVICE = "Antigravity";
/** The remedy for a server not found, and for one that carries no CSRF token. */
export const START_APP = advice("Start Antigravity (from https://antigravity.google) and sign in, then retry.");

// The program is language_server_<os>_<arch> (language-server in newer builds), at a path-segment start.
const PROGRAM = /(?:^|[\s/\\])language[_-]server/;
const TOKEN = /^[\x21-\x7e]{1,512}$/;

/**
 * Credentials found = a matching language server runs as this user. Another user's is never
 * trusted: anyone can start a program named like it, and it would be handed the CSRF token and
 * believed (the plain-http fallback port is whatever its command line says).
 */
export const languageServer: CredentialSource<LanguageServer> = machineWide({
  async resolve({ processes }) {
    const { own, others } = await ownProcesses(processes, { service: SERVICE });
    const server = findLanguageServer(own);
    if (server !== null) return server;
    const foreign = findLanguageServer(others);
    if (foreign !== null) throw notYours(others.find((p) => p.pid === foreign.pid) as RunningProcess);
    return null;
  },
});

function notYours({ pid, uid }: RunningProcess): Error {
  return notConfigured(
    `${SERVICE} language server not detected: the one running (pid ${pid}) belongs to ${uid === null ? "an unknown user" : `another user (uid ${uid})`}, and quotabar only talks to your own.`,
    advice("Start Antigravity as yourself and sign in, then retry."),
  );
}

/** The first Antigravity language server that carries a CSRF token, else the first one at all, else null. */
export function findLanguageServer(processes: readonly RunningProcess[]): LanguageServer | null {
  const servers = processes.filter((p) => isAntigravityServer(p.command)).map(describe);
  return servers.find((s) => s.csrfToken !== null) ?? servers[0] ?? null;
}

/** A language server (by program name) with an Antigravity marker: its app data dir, or a path through an antigravity folder. */
export function isAntigravityServer(command: string): boolean {
  const lower = command.toLowerCase();
  if (!PROGRAM.test(lower)) return false;
  return (
    (lower.includes("--app_data_dir") && lower.includes("antigravity")) ||
    lower.includes("/antigravity/") ||
    lower.includes("\\antigravity\\")
  );
}

function describe({ pid, command }: RunningProcess): LanguageServer {
  const words = command.split(/\s+/);
  const token = (name: string) => {
    const value = flag(words, name);
    return value !== null && TOKEN.test(value) ? value : null;
  };
  const port = Number(flag(words, "--extension_server_port"));
  return {
    pid,
    csrfToken: token("--csrf_token"),
    extensionServerPort: Number.isInteger(port) && port > 0 && port <= 65_535 ? port : null,
    extensionCsrfToken: token("--extension_server_csrf_token"),
  };
}

/** `--name value` or `--name=value` (names case-insensitive); a following flag is not a value. */
function flag(words: readonly string[], name: string): string | null {
  for (let i = 0; i < words.length; i++) {
    const word = (words[i] as string).toLowerCase();
    if (word === name) {
      const next = words[i + 1];
      return next === undefined || next.startsWith("-") ? null : next;
    }
    if (word.startsWith(`${name}=`)) return (words[i] as string).slice(name.length + 1) || null;
  }
  return null;
}
