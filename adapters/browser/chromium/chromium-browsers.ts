import { isAbsolute, join } from "node:path";
import { homeOf } from "../../config/config-path.js";
import type { Environment } from "../../../ports/environment.js";

/** Where a Chromium-family browser keeps its profiles, and where its cookie key ("Safe Storage") lives. */
export interface ChromiumBrowser {
  id: string;
  name: string;
  /** Under ~/Library/Application Support. */
  mac?: readonly string[];
  /** Under $CHROME_CONFIG_HOME, else $XDG_CONFIG_HOME, else ~/.config. */
  linux?: readonly string[];
  /** Under HOME: Snap and Flatpak installs. */
  linuxSandboxed?: readonly string[];
  /** Keychain generic passwords to try, in order (macOS). */
  keychain?: readonly { service: string; account: string }[];
  /** The libsecret item (Linux): its `application` attribute and its label. */
  libsecret?: { application: string; label: string };
}

const chrome = {
  keychain: [{ service: "Chrome Safe Storage", account: "Chrome" }],
  libsecret: { application: "chrome", label: "Chrome Safe Storage" },
};
const chromiumSecret = { application: "chromium", label: "Chromium Safe Storage" };
const keychain = (name: string, accounts: readonly string[] = [name]) =>
  accounts.map((account) => ({ service: `${name} Safe Storage`, account }));

/**
 * The Chromium family, in the reference's order (credentials.md section 1.1 and 1.5). Every Google
 * Chrome channel shares one Keychain item; Edge keeps its key under Chromium's libsecret label and
 * Vivaldi under Chrome's.
 */
export const CHROMIUM_BROWSERS: readonly ChromiumBrowser[] = [
  {
    id: "chrome",
    name: "Chrome",
    mac: ["Google/Chrome"],
    linux: ["google-chrome"],
    linuxSandboxed: [".var/app/com.google.Chrome/config/google-chrome"],
    ...chrome,
  },
  { id: "chrome-beta", name: "Chrome Beta", mac: ["Google/Chrome Beta"], linux: ["google-chrome-beta"], ...chrome },
  { id: "chrome-dev", name: "Chrome Dev", mac: ["Google/Chrome Dev"], linux: ["google-chrome-unstable"], ...chrome },
  { id: "chrome-canary", name: "Chrome Canary", mac: ["Google/Chrome Canary"], linux: ["google-chrome-canary"], ...chrome },
  { id: "chrome-for-testing", name: "Chrome for Testing", linux: ["google-chrome-for-testing"], ...chrome },
  {
    id: "chromium",
    name: "Chromium",
    mac: ["Chromium"],
    linux: ["chromium"],
    linuxSandboxed: ["snap/chromium/common/chromium", ".var/app/org.chromium.Chromium/config/chromium"],
    keychain: keychain("Chromium"),
    libsecret: chromiumSecret,
  },
  {
    id: "edge",
    name: "Microsoft Edge",
    mac: ["Microsoft Edge"],
    linux: ["microsoft-edge"],
    linuxSandboxed: [".var/app/com.microsoft.Edge/config/microsoft-edge"],
    keychain: keychain("Microsoft Edge"),
    libsecret: chromiumSecret,
  },
  {
    id: "edge-beta",
    name: "Microsoft Edge Beta",
    mac: ["Microsoft Edge Beta"],
    linux: ["microsoft-edge-beta"],
    keychain: keychain("Microsoft Edge"),
    libsecret: chromiumSecret,
  },
  {
    id: "edge-dev",
    name: "Microsoft Edge Dev",
    mac: ["Microsoft Edge Dev"],
    linux: ["microsoft-edge-dev"],
    keychain: keychain("Microsoft Edge"),
    libsecret: chromiumSecret,
  },
  { id: "edge-canary", name: "Microsoft Edge Canary", mac: ["Microsoft Edge Canary"], keychain: keychain("Microsoft Edge") },
  {
    id: "brave",
    name: "Brave",
    mac: ["BraveSoftware/Brave-Browser"],
    linux: ["BraveSoftware/Brave-Browser"],
    linuxSandboxed: [".var/app/com.brave.Browser/config/BraveSoftware/Brave-Browser"],
    keychain: keychain("Brave"),
    libsecret: { application: "brave", label: "Brave Safe Storage" },
  },
  {
    id: "brave-beta",
    name: "Brave Beta",
    mac: ["BraveSoftware/Brave-Browser-Beta"],
    linux: ["BraveSoftware/Brave-Browser-Beta"],
    keychain: keychain("Brave"),
    libsecret: { application: "brave", label: "Brave Safe Storage" },
  },
  {
    id: "brave-nightly",
    name: "Brave Nightly",
    mac: ["BraveSoftware/Brave-Browser-Nightly"],
    linux: ["BraveSoftware/Brave-Browser-Nightly"],
    keychain: keychain("Brave"),
    libsecret: { application: "brave", label: "Brave Safe Storage" },
  },
  { id: "arc", name: "Arc", mac: ["Arc/User Data"], keychain: keychain("Arc") },
  { id: "arc-beta", name: "Arc Beta", mac: ["Arc Beta/User Data"], keychain: keychain("Arc", ["Arc Beta"]) },
  { id: "arc-canary", name: "Arc Canary", mac: ["Arc Canary/User Data"], keychain: keychain("Arc", ["Arc Canary"]) },
  {
    id: "vivaldi",
    name: "Vivaldi",
    mac: ["Vivaldi"],
    linux: ["vivaldi", "vivaldi-snapshot"],
    keychain: keychain("Vivaldi"),
    libsecret: chrome.libsecret,
  },
  { id: "dia", name: "Dia", mac: ["Dia/User Data"], keychain: keychain("Dia") },
  {
    id: "atlas",
    name: "ChatGPT Atlas",
    mac: ["com.openai.atlas/browser-data/host"],
    keychain: [
      { service: "ChatGPT Atlas Safe Storage", account: "ChatGPT Atlas" },
      { service: "ChatGPT Atlas Safe Storage", account: "com.openai.atlas" },
      { service: "com.openai.atlas Safe Storage", account: "com.openai.atlas" },
    ],
  },
  {
    id: "helium",
    name: "Helium",
    mac: ["net.imput.helium"],
    linux: ["net.imput.helium"],
    keychain: [
      { service: "Helium Storage Key", account: "Helium" },
      { service: "Helium Safe Storage", account: "Helium" },
      { service: "net.imput.helium Safe Storage", account: "net.imput.helium" },
    ],
  },
  { id: "yandex", name: "Yandex", mac: ["Yandex/YandexBrowser"], keychain: keychain("Yandex") },
  { id: "comet", name: "Comet", mac: ["Comet"], keychain: keychain("Comet") },
];

export function chromiumBrowser(id: string): ChromiumBrowser | undefined {
  return CHROMIUM_BROWSERS.find((b) => b.id === id);
}

/** $CHROME_CONFIG_HOME, else $XDG_CONFIG_HOME (when absolute), else ~/.config: where Chromium on Linux puts its user data. */
function linuxConfigHome(env: Environment): string {
  for (const dir of [env.CHROME_CONFIG_HOME, env.XDG_CONFIG_HOME]) if (dir && isAbsolute(dir)) return dir;
  return join(homeOf(env), ".config");
}

/** The user-data directories this browser may have on this OS, most likely first (they may not exist). */
export function chromiumRoots(browser: ChromiumBrowser, platform: NodeJS.Platform, env: Environment): string[] {
  const home = homeOf(env);
  if (platform === "darwin") return (browser.mac ?? []).map((dir) => join(home, "Library", "Application Support", dir));
  if (platform === "linux") {
    const config = linuxConfigHome(env);
    return [...(browser.linux ?? []).map((dir) => join(config, dir)), ...(browser.linuxSandboxed ?? []).map((dir) => join(home, dir))];
  }
  return [];
}
