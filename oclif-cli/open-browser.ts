import { spawn } from "node:child_process";

/**
 * The program that opens a URL on this desktop, or null when there is none to use: `open` on macOS,
 * `xdg-open` on Linux and the BSDs only inside a graphical session (DISPLAY or WAYLAND_DISPLAY).
 */
export function browserCommand(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>): string | null {
  if (platform === "darwin") return "open";
  if (platform === "linux" || platform === "freebsd" || platform === "openbsd") {
    return env.DISPLAY || env.WAYLAND_DISPLAY ? "xdg-open" : null;
  }
  return null;
}

/**
 * Best effort: start the browser on a public http(s) URL (never one carrying a secret), without a
 * shell, detached. Resolves false when no browser could be started; it never throws.
 */
export function openInBrowser(url: string, env: Readonly<Record<string, string | undefined>> = process.env): Promise<boolean> {
  const command = browserCommand(process.platform, env);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return Promise.resolve(false);
  }
  if (command === null || (parsed.protocol !== "https:" && parsed.protocol !== "http:")) return Promise.resolve(false);
  return new Promise((resolve) => {
    try {
      const child = spawn(command, [parsed.toString()], { detached: true, stdio: "ignore" });
      child.once("error", () => resolve(false));
      child.once("spawn", () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
