import {
  machineWide,
  compareText,
  configHome,
  homeOf,
  hostOs,
  joinPath,
  modifiedAt,
  subdirectories,
  type CredentialSource,
} from "../kit/index.js";
import type { Environment } from "../../ports/environment.js";

/** Kiro writes one log folder per launch (`20260310T114951`); only the latest few can hold a recent answer. */
const MAX_LAUNCHES = 8;
const MAX_WINDOWS = 16;

/**
 * Where Kiro (the IDE) keeps its logs: `~/Library/Application Support/Kiro/logs` on macOS,
 * `$XDG_CONFIG_HOME/Kiro/logs` (else `~/.config/Kiro/logs`) on Linux; none elsewhere.
 */
export function kiroLogRoot(env: Environment, platform: NodeJS.Platform = hostOs().platform): string | null {
  if (platform === "darwin") return joinPath(homeOf(env), "Library", "Application Support", "Kiro", "logs");
  if (platform === "linux") return joinPath(configHome(env), "Kiro", "logs");
  return null;
}

/** The log of one window of one launch: `<launch>/window<N>/exthost/kiro.kiroAgent/q-client.log`. */
export const kiroLogPath = (root: string, launch: string, window: string) =>
  joinPath(root, launch, window, "exthost", "kiro.kiroAgent", "q-client.log");

/** A q-client.log and when it was last written. */
export interface KiroLogFile {
  path: string;
  mtimeMs: number;
}

/**
 * The q-client.log written last, among the windows of the latest launches: found means Kiro has
 * run here. Its age is judged when it is read (an old log hands over to kiro-cli). A folder that
 * cannot be read counts as none: kiro-cli still gets its turn.
 */
export const kiroLogFile: CredentialSource<KiroLogFile> = machineWide({
  async resolve({ env }) {
    const root = kiroLogRoot(env);
    if (root === null) return null;
    const launches = (await subdirectories(root).catch(() => [])).sort(compareText).reverse().slice(0, MAX_LAUNCHES);
    let newest: KiroLogFile | null = null;
    for (const launch of launches) {
      const windows = (await subdirectories(joinPath(root, launch)).catch(() => [])).filter((name) => name.startsWith("window"));
      for (const window of windows.slice(0, MAX_WINDOWS)) {
        const path = kiroLogPath(root, launch, window);
        const mtimeMs = await modifiedAt(path).catch(() => null);
        if (mtimeMs !== null && (newest === null || mtimeMs > newest.mtimeMs)) newest = { path, mtimeMs };
      }
    }
    return newest;
  },
});
