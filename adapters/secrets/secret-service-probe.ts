import type { Environment } from "../../ports/environment.js";

const NAME = "org.freedesktop.secrets";

/**
 * Whether a Secret Service owns (or can be started for) its name on the session bus. Asked before
 * the OS keyring is used on Linux, because @napi-rs/keyring falls back to the kernel keyring without
 * a word when there is none. Uses dbus-send (package dbus-bin, there wherever a session bus is);
 * without it, or without a bus, the answer is no.
 */
export async function secretServiceReachable(env: Environment): Promise<boolean> {
  if (!env.DBUS_SESSION_BUS_ADDRESS) return false;
  // node:child_process loads when the bus is asked, not with every run that might ask it
  const { execFile } = await import("node:child_process");
  const ask = (method: string, ...args: string[]) =>
    new Promise<string>((resolve) =>
      execFile(
        "dbus-send",
        [
          "--session",
          "--print-reply=literal",
          "--dest=org.freedesktop.DBus",
          "/org/freedesktop/DBus",
          `org.freedesktop.DBus.${method}`,
          ...args,
        ],
        { env: { PATH: env.PATH ?? "/usr/bin:/bin", DBUS_SESSION_BUS_ADDRESS: env.DBUS_SESSION_BUS_ADDRESS }, timeout: 2000 },
        (error, stdout) => resolve(error ? "" : stdout),
      ),
    );
  if (/\btrue\b/.test(await ask("NameHasOwner", `string:${NAME}`))) return true;
  return (await ask("ListActivatableNames")).split(/\s+/).includes(NAME);
}
