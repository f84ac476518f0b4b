import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UsageDocumentSchema } from "../../domain/usage-document.js";
import { WARP_TEST_KEY } from "../../providers/warp/simulator.js";
import { runCli } from "../helpers/cli.js";
import { useSimulator } from "../helpers/harness.js";
import { stillRunning } from "../helpers/processes.js";

const sim = useSimulator();
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "quotabar-notify-"));
  dirs.push(dir);
  return dir;
};

/** Rows in one order whatever order they came in (the commands of one refresh run side by side). */
const unordered = <T>(rows: T[]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** The lines a --notify-command appended, as events. */
const eventsIn = (file: string) =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    : [];

describe("quotabar watch --count 1 --notify-command (the built CLI against the simulator)", () => {
  it("writes one event per crossed threshold, and a second run in the same window writes none", async () => {
    const dir = tempDir();
    const file = join(dir, "events.jsonl");
    const config = join(dir, "config.json");
    // Warp's credits are at 81 %, its add-on credits at 57 %: thresholds 50 and 80 give three events
    writeFileSync(config, JSON.stringify({ notify: { thresholds: [50, 80], runOut: false } }));
    const args = ["watch", "-p", "warp", "--count", "1", "--no-notify", "--notify-command", `cat >> '${file}'`];
    const first = await runCli(args, sim.env({ QUOTABAR_CONFIG: config }));
    expect(first).toMatchObject({ code: 0, stderr: "" });
    expect(first.stdout).toMatch(/^Updated \d\d:\d\d:\d\d\nWarp\n {2}Credits {9}█+░+ {4}81%/);
    const events = eventsIn(file);
    expect(unordered(events.map((e) => [e.type, e.provider, e.meter, e.label, e.threshold, e.usedPercent]))).toEqual([
      ["threshold", "warp", "primary", "Credits", 50, 81],
      ["threshold", "warp", "primary", "Credits", 80, 81],
      ["threshold", "warp", "secondary", "Add-on credits", 50, 57.14],
    ]);
    for (const event of events) {
      expect(Object.keys(event)).toEqual(["type", "provider", "account", "meter", "label", "threshold", "usedPercent", "resetsAt", "at"]);
      expect(Date.parse(event.at as string)).toBeGreaterThan(Date.now() - 120_000);
    }
    expect(events.find((e) => e.meter === "primary")!.resetsAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(events.find((e) => e.meter === "secondary")!.resetsAt).toBeNull();
    expect(readFileSync(file, "utf8")).not.toContain(WARP_TEST_KEY);

    const second = await runCli(args, sim.env({ QUOTABAR_CONFIG: config }));
    expect(second).toMatchObject({ code: 0, stderr: "" });
    expect(eventsIn(file)).toHaveLength(3);
  }, 90_000);

  it("with the default thresholds (80 and 95 %) tells Warp's 81 % once; a failing command is reported, never fatal; a failing provider exits 1", async () => {
    const dir = tempDir();
    const file = join(dir, "events.jsonl");
    const run = await runCli(
      ["watch", "-p", "warp", "--count", "1", "--json", "--no-notify", "--notify-command", `cat >> '${file}'`],
      sim.env(),
    );
    expect(run.code).toBe(0);
    expect(UsageDocumentSchema.parse(JSON.parse(run.stdout)).providers[0]).toMatchObject({ id: "warp", ok: true });
    expect(eventsIn(file).filter((e) => e.type === "threshold")).toEqual([expect.objectContaining({ meter: "primary", threshold: 80 })]);

    // a command that fails is reported and the watch goes on; a provider that fails makes the exit code 1
    const command = ["watch", "-p", "warp", "--count", "1", "--no-notify", "--notify-command", "echo nope >&2; exit 4"];
    const reported = await runCli(command, { ...sim.env(), HOME: tempDir() });
    expect(reported).toMatchObject({ code: 0, stderr: "--notify-command failed (exit code 4): nope\n" });
    sim.sim.setScenario("warp", "upstream_500");
    expect((await runCli(command, { ...sim.env(), HOME: tempDir() })).code).toBe(1);
  }, 90_000);

  it("says once on stderr that no desktop notification service answers, and still runs the command", async () => {
    if (process.platform === "darwin") return; // there osascript would show real notifications
    const dir = tempDir();
    const file = join(dir, "events.jsonl");
    const config = join(dir, "config.json");
    writeFileSync(
      config,
      JSON.stringify({ notify: { thresholds: [10, 20, 30], runOut: false }, providers: [{ id: "warp", notify: { thresholds: [1] } }] }),
    );
    // no session bus in this environment (no DBUS_SESSION_BUS_ADDRESS, no DISPLAY): notify-send or gdbus fail
    const run = await runCli(["watch", "-p", "warp", "--count", "1", "--notify-command", `cat >> '${file}'; echo bad >&2; exit 2`], {
      ...sim.env({ QUOTABAR_CONFIG: config }),
      DBUS_SESSION_BUS_ADDRESS: undefined,
      DISPLAY: undefined,
    });
    expect(run.code).toBe(0);
    const lines = run.stderr.trim().split("\n");
    // "the notification service could not be reached (...)", or that neither notify-send nor gdbus is installed
    expect(lines.filter((l) => l.startsWith("No desktop notifications: "))).toHaveLength(1);
    // the provider's own thresholds replace the root's: one event per meter
    expect(lines.filter((l) => l === "--notify-command failed (exit code 2): bad")).toHaveLength(2);
    expect(unordered(eventsIn(file).map((e) => [e.meter, e.threshold]))).toEqual([
      ["primary", 1],
      ["secondary", 1],
    ]);
  }, 90_000);
});

describe("slow and noisy notify commands (the built CLI against the simulator)", () => {
  /** Warp at 81 % and 57 % with thresholds 50 and 80: three events in one refresh. */
  const threeEvents = () => {
    const dir = tempDir();
    const config = join(dir, "config.json");
    writeFileSync(config, JSON.stringify({ notify: { thresholds: [50, 80], runOut: false } }));
    return { dir, env: { ...sim.env({ QUOTABAR_CONFIG: config }), HOME: dir } };
  };
  const watch = (command: string) => ["watch", "-p", "warp", "--count", "1", "--timeout", "5", "--no-notify", "--notify-command", command];

  it("runs the commands of one refresh side by side: each waits for all three to have started", async () => {
    const { dir, env } = threeEvents();
    const started = join(dir, "started");
    const file = join(dir, "events.jsonl");
    // one after another, the first would wait until it was stopped, and so would each after it
    const command = `echo x >> '${started}'; while [ "$(wc -l < '${started}')" -lt 3 ]; do sleep 0.05; done; cat >> '${file}'`;
    const run = await runCli(watch(command), env);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(eventsIn(file)).toHaveLength(3);
  }, 60_000);

  it("stops a command that hangs after 10 s with its process group, says so, and --count 1 then ends", async () => {
    const { dir, env } = threeEvents();
    const pids = join(dir, "pids");
    const run = await runCli(watch(`sleep 100 & echo $! >> '${pids}'; wait`), env);
    expect(run.code).toBe(0);
    expect(run.stderr.trim().split("\n")).toEqual(Array(3).fill("--notify-command did not finish within 10 s; it was stopped."));
    const sleepers = readFileSync(pids, "utf8").trim().split("\n").map(Number);
    expect(sleepers).toHaveLength(3);
    for (const pid of sleepers) expect(stillRunning(pid), `sleep ${pid}`).toBe(false); // gone with their group
  }, 60_000);

  it("reports only the first line of what a failing command printed, however much it printed", async () => {
    const { env } = threeEvents();
    const run = await runCli(watch("echo 'webhook down' >&2; head -c 50000000 /dev/zero >&2; head -c 50000000 /dev/zero; exit 5"), env);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("--notify-command failed (exit code 5): webhook down\n".repeat(3));
  }, 60_000);
});

describe("pace and history through the CLI", () => {
  it("shows the pace of a meter with a window, keeps each reading, and cache clear drops them", async () => {
    const env = sim.env();
    const json = await runCli(["-p", "opencode", "--json"], env);
    expect(json.code).toBe(0);
    const opencode = UsageDocumentSchema.parse(JSON.parse(json.stdout)).providers[0]!;
    const paced = [opencode.primary, opencode.secondary, opencode.tertiary].filter((m) => m?.pace);
    expect(paced.length).toBeGreaterThan(0);
    for (const m of paced) expect(m!.pace).toMatchObject({ basis: "window", lastsToReset: m!.pace!.runsOutAt === null });
    // readings are kept to the nearest second: the second run reads when that is a later second than the first's
    const firstSecond = Math.round(Date.parse(opencode.fetchedAt!) / 1000);
    while (Date.now() < (firstSecond + 0.5) * 1000) await new Promise((r) => setTimeout(r, 50));
    const text = await runCli(["-p", "opencode"], env);
    expect(text.stdout).toMatch(
      /\n {3,}(\d+% (ahead of pace|in reserve)|on pace) · (runs out in .+ before the reset|lasts to the reset)\n/,
    );

    const history = await runCli(["history", "-p", "opencode", "--json"], env);
    expect(history.code).toBe(0);
    const kept = JSON.parse(history.stdout) as { version: number; providers: { provider: string; meters: { points: unknown[] }[] }[] };
    expect(kept.version).toBe(1);
    expect(kept.providers.map((p) => p.provider)).toEqual(["opencode"]);
    // two runs, one reading each per meter
    expect(kept.providers[0]!.meters.map((m) => m.points.length)).toEqual(kept.providers[0]!.meters.map(() => 2));
    const lines = await runCli(["history", "-p", "opencode"], env);
    expect(lines.stdout.split("\n")[0]).toBe("OpenCode");
    expect(lines.stdout).toMatch(/ · daily peaks [▁▂▃▄▅▆▇█]+ {2}highest \d+(\.\d)?% on [A-Z][a-z]{2} \d+\n/);
    expect((await runCli(["history", "--since", "tomorrow"], env)).code).toBe(2);

    expect((await runCli(["cache", "clear", "-p", "opencode"], env)).code).toBe(0);
    const cleared = await runCli(["history", "-p", "opencode"], env);
    expect(cleared.stdout).toMatch(/^No readings kept yet/);
  }, 90_000);
});

describe("the library: history() and watch({ onEvents })", () => {
  it("gives the kept readings, and each refresh's events once", async () => {
    const quotabar = sim.quotabar();
    await quotabar.usage({ providers: ["warp"] });
    const [warp] = await quotabar.history({ providers: ["warp"] });
    expect(warp!.meters.map((m) => [m.meter, m.label, m.points.length, m.points[0]!.usedPercent])).toEqual([
      ["primary", "Credits", 1, 81],
      ["secondary", "Add-on credits", 1, 57.14],
    ]);
    expect(await quotabar.history({ providers: ["warp"], since: new Date(Date.now() + 86_400_000) })).toEqual([]);
    await expect(quotabar.history({ providers: ["nope"] })).rejects.toThrow("Unknown provider id: nope");

    const told: string[][] = [];
    let refreshed: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (refreshed = resolve));
    const stop = quotabar.watch({
      providers: ["warp"],
      intervalMs: 10_000,
      onUpdate: () => undefined,
      onEvents: (events) => {
        // Warp's monthly credits may also forecast a run-out, depending on the month: thresholds only here
        told.push(events.flatMap((e) => (e.type === "threshold" ? [`${e.meter}:${e.threshold}`] : [])));
        refreshed();
      },
    });
    await first;
    await stop();
    expect(told).toEqual([["primary:80"]]);
    // a second watch (another process, a restart) tells nothing new in the same window
    const again: unknown[][] = [];
    let done: () => void = () => undefined;
    const once = new Promise<void>((resolve) => (done = resolve));
    const stopAgain = sim.quotabar().watch({
      providers: ["warp"],
      onUpdate: () => undefined,
      onEvents: (events) => {
        again.push([...events]);
        done();
      },
    });
    await once;
    await stopAgain();
    expect(again).toEqual([[]]);
  }, 90_000);
});
