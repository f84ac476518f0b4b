import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempHome, useSimulator } from "../helpers/harness.js";

/**
 * Odd paths and environment, as an unlucky user (or a hostile one) sets them: a cache directory
 * that cannot be made (under /dev/null, in /proc), a config that is a device, a FIFO or huge, a
 * cache entry or a provider's local file replaced by a FIFO or a device. Only regular files are
 * read, with a size cap; a cache directory that cannot be made is said once, and the run goes on
 * without a cache, with the exit code it would have had without one.
 */

const sim = useSimulator();
const scratch = tempHome();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const usage = async (env: Record<string, string | undefined>) => {
  const run = await runCli(["-p", "warp", "-p", "zai", "--json"], env);
  const providers =
    run.code === 0 || run.code === 1 ? (JSON.parse(run.stdout) as { providers: { id: string; ok: boolean }[] }).providers : [];
  return { run, providers };
};

const fifo = (path: string): string => {
  execFileSync("mkfifo", [path]);
  return path;
};

describe("a cache directory that cannot be made", () => {
  it("cache clear under XDG_CACHE_HOME=/dev/null forgets nothing and exits 0", async () => {
    const run = await runCli(["cache", "clear"], sim.env({ XDG_CACHE_HOME: "/dev/null" }));
    expect(run.stderr).toBe("");
    expect(run).toMatchObject({ code: 0, stdout: "Forgot every kept snapshot, status poll, token and cookie header.\n" });
  });

  for (const [name, dir, reason] of [
    ["/dev/null", "/dev/null", "/dev/null is not a directory"],
    ["/proc", "/proc", "/proc/quotabar cannot be made there"],
  ] as const) {
    it(`a refresh with XDG_CACHE_HOME=${name} says so once and goes on without a cache (exit 0)`, async () => {
      const { run, providers } = await usage(sim.env({ XDG_CACHE_HOME: dir }));
      expect(run.code).toBe(0);
      expect(providers.map((p) => [p.id, p.ok])).toEqual([
        ["warp", true],
        ["zai", true],
      ]);
      expect(run.stderr).toBe(
        `quotabar: cannot keep a cache in ${dir}/quotabar (${reason}); going on without one. Set XDG_CACHE_HOME to a directory you can write.\n`,
      );
    });
  }

  it("a status bar's poll with XDG_CACHE_HOME=/proc refreshes, shows the usage and ends (its lock folder cannot be made)", async () => {
    const run = await runCli(["bar", "--format", "text", "-p", "warp"], sim.env({ XDG_CACHE_HOME: "/proc" }));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^warp \d+%/);
  });

  it("without a cache, a failing provider is shown failing (exit 1), never stale", async () => {
    sim.sim.setScenario("warp", "upstream_500");
    const { run, providers } = await usage(sim.env({ XDG_CACHE_HOME: "/dev/null" }));
    expect(run.code).toBe(1);
    expect(providers.find((p) => p.id === "warp")).toMatchObject({ ok: false, stale: false, error: { code: "upstream" } });
  });
});

describe("only regular files are read", () => {
  for (const [name, make] of [
    ["/dev/urandom", () => "/dev/urandom"],
    ["a FIFO", () => fifo(join(scratch, "config-fifo.json"))],
    ["a directory", () => scratch],
  ] as const) {
    it(`QUOTABAR_CONFIG=${name} is a config error (exit 2), read no further`, async () => {
      const config = make();
      const run = await runCli(["-p", "zai", "--json"], sim.env({ QUOTABAR_CONFIG: config }));
      expect(run.code).toBe(2);
      const error = (JSON.parse(run.stdout) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe("config");
      expect(error.message).toMatch(new RegExp(`^${config}: cannot read: .*(not a regular file|a directory, not a file)`));
    });
  }

  it("a config file over 1 MiB is refused unread", async () => {
    const config = join(scratch, "huge.json");
    writeFileSync(config, `{"version":1,"providers":[]${" ".repeat(1024 * 1024)}}`);
    const run = await runCli(["config", "show"], sim.env({ QUOTABAR_CONFIG: config }));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${config}: cannot read: larger than 1 MiB (EFBIG)`);
  });

  it("a snapshot replaced by a FIFO or a device reads as no snapshot, and the run goes on", async () => {
    const snapshots = join(sim.home, ".cache", "quotabar", "snapshots");
    mkdirSync(snapshots, { recursive: true });
    fifo(join(snapshots, "warp.json"));
    symlinkSync("/dev/zero", join(snapshots, "zai.json"));
    sim.sim.setScenario("warp", "upstream_500");
    sim.sim.setScenario("zai", "upstream_500");
    const { run, providers } = await usage(sim.env());
    expect(run.code).toBe(1);
    expect(providers).toMatchObject([
      { id: "warp", ok: false, stale: false },
      { id: "zai", ok: false, stale: false },
    ]);
  });

  it("a provider's local file (Vertex AI's gcloud sign-in) that is a device or a FIFO is refused, not read", async () => {
    const home = join(scratch, "vertex-home");
    await sim.sim.seedHome(home, ["vertexai"]);
    const adc = join(home, ".config", "gcloud", "application_default_credentials.json");
    for (const replace of [() => symlinkSync("/dev/urandom", adc), () => fifo(adc)]) {
      rmSync(adc, { force: true });
      replace();
      const run = await runCli(["-p", "vertexai", "--json"], sim.env({ HOME: home }));
      expect(run.code).toBe(1);
      const [vertex] = (JSON.parse(run.stdout) as { providers: { error: { message: string } }[] }).providers;
      expect(vertex?.error.message).toBe(`gcloud credentials are unreadable at ${adc} (ENOTREG).`);
    }
  });
});

describe("a secrets file whose directory cannot be made", () => {
  it("fails the write at once under /proc (mkdir -p there retries without end) and reads as empty", async () => {
    const { FileSecretStore } = await import("../../adapters/secrets/file-secret-store.js");
    const store = new FileSecretStore("/proc/quotabar/secrets.json");
    const failed = await store.set("quotabar", "cookie:amp", "value").then(
      () => null,
      (error: NodeJS.ErrnoException) => error,
    );
    expect(failed?.code).toMatch(/^(ENOENT|EACCES|EPERM|EROFS)$/);
    expect(await store.get("quotabar", "cookie:amp")).toBeNull();
  });
});
