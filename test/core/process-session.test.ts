import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_SESSION_LINE_BYTES, startSession } from "../../adapters/process/process-session.js";
import { NodeProcessRunner } from "../../adapters/process/node-process-runner.js";
import { stillRunning } from "../helpers/processes.js";

/**
 * A conversation with a program over stdin and stdout, line by line (what `codex app-server`
 * needs): real programs (sh), each in its own process group, always ended.
 */
const dir = mkdtempSync(join(tmpdir(), "quotabar-session-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a process session", () => {
  it("answers line by line while stdin stays open, and the runner offers it", async () => {
    const session = new NodeProcessRunner().start("/bin/sh", ["-c", 'while IFS= read -r line; do echo "got $line"; done']);
    session.send("first");
    expect(await session.nextLine()).toBe("got first");
    session.send("second");
    expect(await session.nextLine()).toBe("got second");
    session.end();
    expect(await session.nextLine()).toBeNull();
    expect(session.timedOut()).toBe(false);
  });

  it("gives lines split across writes whole, and the lines a program wrote before it exited", async () => {
    const session = startSession("/bin/sh", ["-c", "printf 'a'; sleep 0.1; printf 'b\\nc\\r\\n'; echo oops >&2; exit 3"]);
    expect(await session.nextLine()).toBe("ab");
    expect(await session.nextLine()).toBe("c");
    expect(await session.nextLine()).toBeNull();
    expect(session.stderr()).toBe("oops\n");
  });

  it("rejects when the program cannot be started", async () => {
    const session = startSession(join(dir, "no-such-program"), []);
    await expect(session.nextLine()).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses a line longer than it takes, and stops the program", async () => {
    const session = startSession("/bin/sh", ["-c", `head -c ${MAX_SESSION_LINE_BYTES + 10} /dev/zero | tr '\\0' x; sleep 30`]);
    await expect(session.nextLine()).rejects.toMatchObject({ code: "ELINE" });
  });

  it("stops the whole process group at the timeout, and says it timed out", async () => {
    const pidFile = join(dir, "child.pid");
    const session = startSession("/bin/sh", ["-c", `sleep 600 & echo $! > ${pidFile}; wait`], { timeoutMs: 300 });
    expect(await session.nextLine()).toBeNull();
    expect(session.timedOut()).toBe(true);
    const child = Number(readFileSync(pidFile, "utf8"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stillRunning(child)).toBe(false);
  });

  it("stops when the signal aborts", async () => {
    const controller = new AbortController();
    const session = startSession("/bin/sh", ["-c", "sleep 600"], { signal: controller.signal });
    const line = session.nextLine();
    controller.abort();
    expect(await line).toBeNull();
    expect(session.timedOut()).toBe(true);
  });
});
