import { spawn } from "node:child_process";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { UsageDocumentSchema, type UsageDocument } from "../../domain/usage-document.js";
import { createQuotabar } from "../../index.js";
import { createCliCore } from "../../oclif-cli/composition.js";
import { keepaliveLine, parseInterval, runWatch, watchEnding } from "../../oclif-cli/commands/watch.js";
import { AUGMENT_TEST_SESSION } from "../../providers/augment/simulator.js";
import { runCli } from "../helpers/cli.js";
import { useSimulator } from "../helpers/harness.js";

const sim = useSimulator();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** No auggie and no login shell to ask: Augment answers from the simulated web app. */
const NO_AUGGIE = { PATH: "/usr/bin:/bin", SHELL: undefined };

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const heapUsed = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

/** A clock that jumps by whatever the loop sleeps, and ends the watch (as Ctrl-C would) after `endAfterMs`. */
function fakeClock(endAfterMs: number, stop: AbortController) {
  const start = Date.parse("2026-03-31T12:00:00Z");
  let now = start;
  return {
    now: () => new Date(now),
    minutes: () => (now - start) / MINUTE,
    async sleep(ms: number) {
      now += ms;
      if (now - start >= endAfterMs) stop.abort();
    },
  };
}

describe("quotabar watch (the loop, with a fake clock through the CLI's composition)", () => {
  it("refreshes every --interval 1m for a simulated hour on a flat heap, checking sessions every 5 minutes", async () => {
    const stop = new AbortController();
    const clock = fakeClock(HOUR, stop);
    const core = createCliCore({}, { env: sim.env(NO_AUGGIE), clock });
    const checks: number[] = [];
    const check = core.keepalive.check.bind(core.keepalive);
    core.keepalive.check = (ids, options) => {
      checks.push(clock.minutes());
      return check(ids, options);
    };
    const documents: number[] = [];
    const warnings: string[] = [];
    const heap: number[] = [];
    await runWatch(
      core,
      { intervalMs: parseInterval("1m"), json: true, request: { providers: ["augment", "warp"] } },
      {
        write: (text) => {
          const doc = UsageDocumentSchema.parse(JSON.parse(text)) as UsageDocument;
          expect(text.endsWith("\n") && !text.slice(0, -1).includes("\n")).toBe(true);
          expect(doc.providers.map((p) => [p.id, p.ok])).toEqual([
            ["augment", true],
            ["warp", true],
          ]);
          documents.push(clock.minutes());
          sim.sim.requests.length = 0; // the simulator's log is the test's, not the loop's
          if ([10, 59].includes(clock.minutes())) heap.push(heapUsed());
        },
        warn: (line) => warnings.push(`${clock.minutes()}: ${line}`),
        tty: false,
        color: false,
        signal: stop.signal,
        sleep: (ms) => clock.sleep(ms),
      },
    );
    expect(documents).toEqual(Array.from({ length: 60 }, (_, minute) => minute));
    expect(checks).toEqual(Array.from({ length: 12 }, (_, i) => i * 5));
    // the pasted header has no expiry: renewed at once, then 30 minutes later
    expect(warnings).toEqual([
      "0: Augment session renewed (cookies without an expiry, never renewed).",
      "30: Augment session renewed (cookies without an expiry, last renewed 30 min ago).",
    ]);
    const [early = 0, late = 0] = heap;
    expect(late - early).toBeLessThan(2 * 1024 * 1024);
  }, 120_000);

  it("redraws the text view in place in a terminal, with the keepalive's news under it", async () => {
    const stop = new AbortController();
    const clock = fakeClock(2 * MINUTE, stop);
    const core = createCliCore({}, { env: sim.env(NO_AUGGIE), clock });
    const frames: string[] = [];
    await runWatch(
      core,
      { intervalMs: MINUTE, json: false, request: { providers: ["augment"] } },
      {
        write: (text) => frames.push(text),
        warn: () => undefined,
        tty: true,
        color: false,
        signal: stop.signal,
        sleep: (ms) => clock.sleep(ms),
      },
    );
    expect(frames.length).toBeGreaterThanOrEqual(2);
    for (const frame of frames) {
      expect(frame.startsWith("\u001b[H\u001b[2J")).toBe(true);
      expect(frame).toContain("Augment · Developer");
      expect(frame).toMatch(/Updated \d\d:\d\d:\d\d · every 1m · Ctrl-C to stop\n$/);
    }
    expect(frames.at(-1)).toContain("Augment session renewed (cookies without an expiry, never renewed).");
    expect(frames.join("")).not.toContain(AUGMENT_TEST_SESSION);
  });

  it("tells a user once the keepalive gave up, with what to do", async () => {
    sim.sim.setScenario("augment", "expired");
    const stop = new AbortController();
    const clock = fakeClock(16 * MINUTE, stop);
    const core = createCliCore({}, { env: sim.env(NO_AUGGIE), clock });
    const warnings: string[] = [];
    await runWatch(
      core,
      { intervalMs: 5 * MINUTE, json: true, request: { providers: ["augment"] } },
      {
        write: () => undefined,
        warn: (line) => warnings.push(line),
        tty: false,
        color: false,
        signal: stop.signal,
        sleep: (ms) => clock.sleep(ms),
      },
    );
    expect(warnings).toEqual([
      "Augment session renewal failed: the service says the session expired (1 in a row).",
      "Augment session renewal failed: the service says the session expired (2 in a row).",
      "Augment session expired: renewing it failed 3 times in a row. Please sign in again. Sign in at https://app.augmentcode.com in your browser.",
    ]);
  });

  it("never waits for a notification to be delivered before the next refresh; the loop's end waits for it", async () => {
    const stop = new AbortController();
    const clock = fakeClock(5 * MINUTE, stop);
    const core = createCliCore({}, { env: sim.env(NO_AUGGIE), clock });
    let release = () => undefined as void;
    const delivered = new Promise<void>((resolve) => (release = resolve));
    // the old loop awaited the delivery: released on a real timer, so it failed rather than hung
    const fallback = setTimeout(release, 3_000);
    let pending = true;
    const whilePending: number[] = [];
    let told = 0;
    const notifier = {
      notify: () => {
        told++;
        return delivered.then(() => void (pending = false));
      },
    };
    const loop = runWatch(
      core,
      { intervalMs: MINUTE, json: true, request: { providers: ["warp"] } },
      {
        write: () => (pending ? whilePending.push(clock.minutes()) : undefined),
        warn: () => undefined,
        tty: false,
        color: false,
        signal: stop.signal,
        notifier,
        sleep: (ms) => clock.sleep(ms),
      },
    );
    let ended = false;
    void loop.then(() => (ended = true));
    while (!stop.signal.aborted) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ended).toBe(false); // stopped, but a delivery is still under way
    release();
    await loop;
    clearTimeout(fallback);
    // Warp's 81 % crossed 80 % at minute 0: its delivery hung, and each minute's refresh came all the same
    expect(whilePending).toEqual([0, 1, 2, 3, 4]);
    expect(told).toBe(1);
  });

  it("ends --count after that many refreshes, failed ones included, and at once on a config that cannot be read", () => {
    const configError = Object.assign(new Error("/home/me/.config/quotabar/config.json: invalid JSON"), { name: "ConfigFileError" });
    const document = (ok: boolean) => ({ providers: [{ ok }] }) as UsageDocument;
    const ending = (count: number | undefined) => {
      const stop = new AbortController();
      return { stop, end: watchEnding(count, () => stop.abort()) };
    };

    // a refresh that fails as a whole for another reason counts, and makes the exit code 1
    const failing = ending(2);
    failing.end.refreshed(document(true));
    failing.end.refreshFailed(new Error("the history could not be read"));
    expect([failing.stop.signal.aborted, failing.end.usageFailure, failing.end.exitCode()]).toEqual([true, null, 1]);

    // with --count, a config error ends it at once, whatever refresh it comes at (exit 2 through the command's catch)
    const counted = ending(5);
    counted.end.refreshed(document(true));
    counted.end.refreshFailed(configError);
    expect([counted.stop.signal.aborted, counted.end.usageFailure]).toEqual([true, configError]);

    // without --count: at the first refresh too; a watch already running reports it and waits for the file to be fixed
    const first = ending(undefined);
    first.end.refreshFailed(configError);
    expect([first.stop.signal.aborted, first.end.usageFailure]).toEqual([true, configError]);
    const running = ending(undefined);
    running.end.refreshed(document(false));
    running.end.refreshFailed(configError);
    expect([running.stop.signal.aborted, running.end.usageFailure, running.end.exitCode()]).toEqual([false, null, 0]);
  });

  it("takes --interval as 30s, 1m or 2h, from 10 seconds to a day", () => {
    expect(["30s", "1m", "2h", "90", " 5M "].map(parseInterval)).toEqual([30_000, MINUTE, 2 * HOUR, 90_000, 5 * MINUTE]);
    for (const bad of ["5s", "0m", "25h", "1.5m", "soon", ""]) expect(() => parseInterval(bad)).toThrow(/Invalid --interval/);
    expect(
      keepaliveLine({
        provider: "augment",
        name: "Augment",
        outcome: "fresh",
        detail: "",
        failures: 0,
        gaveUp: false,
        checkedAt: "",
        error: null,
      }),
    ).toBeNull();
  });
});

describe("createQuotabar().watch()", () => {
  it("refreshes at once, then stops when asked, with nothing left running", async () => {
    const quotabar = createQuotabar({ env: sim.env(NO_AUGGIE) });
    const updates: UsageDocument[] = [];
    let first: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (first = resolve));
    const stop = quotabar.watch({
      providers: ["augment"],
      intervalMs: 60_000,
      onUpdate: (document) => {
        updates.push(document);
        first();
      },
    });
    await arrived;
    await stop();
    expect(updates).toHaveLength(1);
    expect(updates[0]!.providers[0]).toMatchObject({ id: "augment", ok: true, source: "web" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(updates).toHaveLength(1);
  });

  it("hands a refresh that fails as a whole to onError and goes on", async () => {
    const errors: unknown[] = [];
    const quotabar = createQuotabar({ env: sim.env(NO_AUGGIE) });
    let seen: () => void = () => undefined;
    const reported = new Promise<void>((resolve) => (seen = resolve));
    const stop = quotabar.watch({
      providers: ["nope"],
      onUpdate: () => undefined,
      onError: (error) => {
        errors.push(error);
        seen();
      },
    });
    await reported;
    await stop();
    expect((errors[0] as Error).message).toBe("Unknown provider id: nope");
  });
});

/** The built bin, as a user runs it; resolves with the first line on stdout and the child. */
function startWatch(args: string[], env: Record<string, string | undefined>) {
  const clean = Object.fromEntries(Object.entries({ PATH: process.env.PATH, ...env }).filter(([, v]) => v !== undefined)) as Record<
    string,
    string
  >;
  const child = spawn(process.execPath, [join(import.meta.dirname, "..", "..", "bin", "run.cjs"), ...args], { env: clean });
  let stdout = "";
  let stderr = "";
  const firstNote = new Promise<string>((resolve) =>
    child.stderr.on("data", (d) => {
      stderr += d;
      if (stderr.includes("\n")) resolve(stderr.slice(0, stderr.indexOf("\n")));
    }),
  );
  const firstLine = new Promise<string>((resolve) =>
    child.stdout.on("data", (d) => {
      stdout += d;
      if (stdout.includes("\n")) resolve(stdout.slice(0, stdout.indexOf("\n")));
    }),
  );
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  return { child, firstLine, firstNote, closed, output: () => ({ stdout, stderr }) };
}

describe("quotabar watch and refresh-session (the built CLI)", () => {
  it("prints a JSON document per refresh and ends at once, exit 0, on Ctrl-C", async () => {
    const run = startWatch(["watch", "-p", "augment", "--interval", "1m", "--json"], { ...sim.env(NO_AUGGIE), PATH: "/usr/bin:/bin" });
    const line = await run.firstLine;
    expect(UsageDocumentSchema.parse(JSON.parse(line)).providers[0]).toMatchObject({ id: "augment", ok: true });
    // the first keepalive check follows the first refresh
    expect(await run.firstNote).toBe("Augment session renewed (cookies without an expiry, never renewed).");
    run.child.kill("SIGINT");
    expect(await run.closed).toEqual({ code: 0, signal: null });
    expect(run.output().stdout.trim().split("\n")).toHaveLength(1);
  });

  it("ends at once on Ctrl-C even while a refresh is still waiting on a slow upstream", async () => {
    sim.sim.setScenario("warp", "slow");
    const run = startWatch(["watch", "-p", "warp", "--interval", "1m", "--json", "--timeout", "60"], {
      ...sim.env(),
      PATH: "/usr/bin:/bin",
    });
    while (!sim.sim.requests.some((r) => r.providerId === "warp")) await new Promise((resolve) => setTimeout(resolve, 20));
    run.child.kill("SIGINT");
    expect(await run.closed).toEqual({ code: 0, signal: null });
    expect(run.output().stdout).toBe("");
  });

  it("refreshes a session by hand, says when it could not, and refuses a provider without one", async () => {
    const ok = await runCli(["refresh-session", "augment"], sim.env(NO_AUGGIE));
    expect(ok).toMatchObject({ code: 0, stdout: "Augment session renewed.\n" });
    sim.sim.setScenario("augment", "expired");
    const expired = await runCli(["refresh-session", "augment"], sim.env(NO_AUGGIE));
    expect(expired.code).toBe(1);
    expect(expired.stderr).toBe(
      "Error: Augment session expired. Please log in again.\nHint: Sign in at https://app.augmentcode.com in your browser.\n",
    );
    const json = await runCli(["refresh-session", "augment", "--json"], sim.env(NO_AUGGIE));
    expect(JSON.parse(json.stdout)).toMatchObject({ provider: "augment", outcome: "failed", error: { code: "expired" } });
    const warp = await runCli(["refresh-session", "warp"], sim.env(NO_AUGGIE));
    expect(warp).toMatchObject({ code: 2 });
    expect(warp.stderr).toContain("Warp has no web session to refresh");
    expect(warp.stderr).toContain("Providers with a web session to refresh: augment.");
    expect(`${ok.stdout}${expired.stderr}${json.stdout}`).not.toContain(AUGMENT_TEST_SESSION);
  });
});
