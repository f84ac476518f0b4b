import { isAbsolute, join } from "node:path";
import { homeOf } from "../../config/config-path.js";
import type { Environment } from "../../../ports/environment.js";

/** A Gecko browser: where the directories holding its `profiles.ini` are. Its cookies need no key. */
export interface GeckoBrowser {
  id: string;
  name: string;
  /** Under ~/Library/Application Support. */
  mac?: readonly string[];
  /** Under HOME: the legacy root, which Firefox keeps using when it exists. */
  linuxLegacy?: readonly string[];
  /** Under $XDG_CONFIG_HOME, else ~/.config: where Firefox 147 and later start fresh. */
  linuxConfig?: readonly string[];
  /** Under HOME: Snap and Flatpak installs. */
  linuxSandboxed?: readonly string[];
}

/** credentials.md section 2.1. */
export const GECKO_BROWSERS: readonly GeckoBrowser[] = [
  {
    id: "firefox",
    name: "Firefox",
    mac: ["Firefox"],
    linuxLegacy: [".mozilla/firefox"],
    linuxConfig: ["mozilla/firefox"],
    linuxSandboxed: ["snap/firefox/common/.mozilla/firefox", ".var/app/org.mozilla.firefox/.mozilla/firefox"],
  },
  { id: "zen", name: "Zen", mac: ["zen"] },
];

export function geckoBrowser(id: string): GeckoBrowser | undefined {
  return GECKO_BROWSERS.find((b) => b.id === id);
}

/** The directories that may hold this browser's profiles.ini on this OS, in the order to try them (they may not exist). */
export function geckoRoots(browser: GeckoBrowser, platform: NodeJS.Platform, env: Environment): string[] {
  const home = homeOf(env);
  if (platform === "darwin") return (browser.mac ?? []).map((dir) => join(home, "Library", "Application Support", dir));
  if (platform !== "linux") return [];
  const config = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(home, ".config");
  return [
    ...(browser.linuxLegacy ?? []).map((dir) => join(home, dir)),
    ...(browser.linuxConfig ?? []).map((dir) => join(config, dir)),
    ...(browser.linuxSandboxed ?? []).map((dir) => join(home, dir)),
  ];
}
