import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import type { Environment } from "../../ports/environment.js";

/** $QUOTABAR_CONFIG, else $XDG_CONFIG_HOME/quotabar/config.json (when absolute), else ~/.config/quotabar/config.json. */
export function resolveConfigPath(env: Environment): string {
  if (env.QUOTABAR_CONFIG && env.QUOTABAR_CONFIG.trim() !== "") return env.QUOTABAR_CONFIG;
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "quotabar", "config.json");
  return join(homeOf(env), ".config", "quotabar", "config.json");
}

/** $XDG_CACHE_HOME/quotabar (when absolute), else ~/.cache/quotabar. */
export function resolveCacheDir(env: Environment): string {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "quotabar");
  return join(homeOf(env), ".cache", "quotabar");
}

export function homeOf(env: Environment): string {
  return env.HOME && env.HOME.trim() !== "" ? env.HOME : homedir();
}
