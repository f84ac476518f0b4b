import { execFile, spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, mkdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * Real browsers for the tests (credentials.md section 10): a missing binary skips the tests that
 * need it on a developer machine, with the reason printed, and fails them under CI.
 */
export function binary(name: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not in this directory
    }
  }
  return null;
}

/** The binaries, or null after printing why the tests are skipped; under CI a missing one is an error. */
export function requireBinaries(...names: string[]): Record<string, string> | null {
  const found: Record<string, string> = {};
  const missing = names.filter((name) => {
    const path = binary(name);
    if (path) found[name] = path;
    return !path;
  });
  if (missing.length === 0) return found;
  const reason = `${missing.join(", ")} not installed (apt-get install chromium firefox-esr gnome-keyring libsecret-tools dbus-daemon)`;
  if (process.env.CI) throw new Error(`CI must run the real-browser tests: ${reason}`);
  console.warn(`skipping real-browser tests: ${reason}`);
  return null;
}

const started = new Set<ChildProcess>();

/** Headless Chromium that loads one page, flushes its stores and exits (`--dump-dom`). */
export async function chromiumVisit(
  userDataDir: string,
  url: string,
  options: { profile?: string; passwordStore?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<void> {
  await run(
    "chromium",
    [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      `--password-store=${options.passwordStore ?? "basic"}`,
      `--user-data-dir=${userDataDir}`,
      ...(options.profile ? [`--profile-directory=${options.profile}`] : []),
      "--host-resolver-rules=MAP *.example.test 127.0.0.1",
      "--virtual-time-budget=3000",
      "--dump-dom",
      url,
    ],
    { env: options.env ?? process.env, timeout: 90_000 },
  );
}

/** A long-running child in its own process group, killed by `killStarted`. */
export function startDetached(command: string, args: string[], env: NodeJS.ProcessEnv, stdin: "ignore" | "pipe" = "ignore"): ChildProcess {
  const child = spawn(command, args, { env, stdio: [stdin, "pipe", "pipe"], detached: true });
  started.add(child);
  child.on("exit", () => started.delete(child));
  return child;
}

/** Kills every child this file started (its whole process group) and waits for it to go. */
export async function killStarted(): Promise<void> {
  await Promise.all(
    [...started].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          try {
            process.kill(-(child.pid as number), "SIGTERM");
          } catch {
            resolve();
          }
          setTimeout(() => {
            try {
              process.kill(-(child.pid as number), "SIGKILL");
            } catch {
              // already gone
            }
            resolve();
          }, 5_000).unref();
        }),
    ),
  );
}

/** Polls `probe` until it gives a value (or the time runs out, then the last error). */
export async function eventually<T>(probe: () => Promise<T | null>, timeoutMs = 30_000, everyMs = 250): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > until) throw new Error(`nothing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * A private D-Bus session with gnome-keyring on `home` (as libsecret-cookies.test.ts does); its bus
 * address. Unlocked, or locked: its login keyring made (with an item) in a first session, then left
 * locked by the daemon of the second.
 */
export async function privateKeyring(home: string, locked = false): Promise<string> {
  mkdirSync(home, { recursive: true });
  // the daemon answers --unlock before it owns its bus name: a client in that gap has D-Bus start a
  // second, locked daemon, whose unlock prompt (no prompter here) waits for ever; so wait for the name
  const owned =
    "for i in $(seq 100); do dbus-send --session --dest=org.freedesktop.DBus --print-reply /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q true && break; sleep 0.1; done";
  const unlock = `printf %s testpass | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; ${owned}`;
  if (locked) {
    const seed = `${unlock}; printf %s seed | secret-tool store --label=seed service seed username seed`;
    await run("dbus-run-session", ["--", "sh", "-c", seed], { env: { ...process.env, HOME: home }, timeout: 60_000 });
  }
  const start = locked ? `gnome-keyring-daemon --start --components=secrets >/dev/null 2>&1; ${owned}` : unlock;
  const hold = `${start}; echo "BUS=$DBUS_SESSION_BUS_ADDRESS"; exec cat >/dev/null`;
  const session = startDetached("dbus-run-session", ["--", "sh", "-c", hold], { ...process.env, HOME: home }, "pipe");
  return new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: session.stdout as NodeJS.ReadableStream });
    lines.on("line", (line) => line.startsWith("BUS=") && resolve(line.slice(4)));
    session.once("exit", (code) => reject(new Error(`dbus-run-session exited (${code})`)));
  });
}
