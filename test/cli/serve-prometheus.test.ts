import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServe, type ServeHandle } from "../../oclif-cli/serve/start-serve.js";
import { runProgram } from "../helpers/cli.js";
import { useSimulator } from "../helpers/harness.js";
import { httpGet } from "../helpers/http-get.js";

/**
 * quotabar serve's /metrics as Prometheus itself reads it: promtool's checks, and a real Prometheus
 * (Debian package `prometheus`, installed by .ci/run) scraping it on loopback. Under CI a missing
 * binary fails the test; elsewhere the test is skipped with a note.
 */
const sim = useSimulator();
const TOKEN = "7d2e9c4b1a0f3e6d5c8b7a9e0f1d2c3b";
const tools = requirePrometheus();
const running: ServeHandle[] = [];
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(running.map((handle) => handle.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function requirePrometheus(): { promtool: string; prometheus: string } | null {
  const find = (name: string) =>
    (process.env.PATH ?? "")
      .split(delimiter)
      .map((dir) => join(dir, name))
      .find((path) => {
        try {
          accessSync(path, constants.X_OK);
          return true;
        } catch {
          return false;
        }
      });
  const [promtool, prometheus] = [find("promtool"), find("prometheus")];
  if (promtool && prometheus) return { promtool, prometheus };
  const reason = "promtool or prometheus is not installed (apt-get install prometheus)";
  if (process.env.CI) throw new Error(`CI must check quotabar serve with Prometheus: ${reason}`);
  console.warn(`skipping the Prometheus tests: ${reason}`);
  return null;
}

async function serving(token: string | null): Promise<ServeHandle> {
  const handle = await startServe({
    env: sim.env(),
    host: "127.0.0.1",
    port: 0,
    intervalMs: 3_600_000,
    token,
    providers: ["openrouter", "warp", "copilot"],
    log: () => undefined,
  });
  running.push(handle);
  while (handle.state.providers().length < handle.providers.length) await new Promise((r) => setTimeout(r, 20));
  return handle;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(tools === null)("quotabar serve's /metrics, read by Prometheus", () => {
  it("passes promtool check metrics", async () => {
    const handle = await serving(null);
    const metrics = (await httpGet(`${handle.url}/metrics`)).body;
    expect(metrics).toContain("quotabar_meter_used_percent{");
    const check = await runProgram(tools!.promtool, ["check", "metrics"], { stdin: metrics });
    expect(check.stdout + check.stderr).toBe("");
    expect(check.code).toBe(0);
  });

  it("contrib/prometheus: the team's scrape config and the alert rules pass promtool check", async () => {
    const contrib = join(import.meta.dirname, "..", "..", "contrib", "prometheus");
    const rules = await runProgram(tools!.promtool, ["check", "rules", join(contrib, "quotabar-alerts.yml")]);
    expect([rules.code, rules.stdout]).toEqual([0, expect.stringContaining("SUCCESS: 4 rules found")]);
    // as installed: the token file it names, the rules beside it
    const dir = mkdtempSync(join(tmpdir(), "qb-contrib-"));
    dirs.push(dir);
    writeFileSync(join(dir, "token"), `${TOKEN}\n`, { mode: 0o600 });
    copyFileSync(join(contrib, "quotabar-alerts.yml"), join(dir, "quotabar-alerts.yml"));
    const config = readFileSync(join(contrib, "prometheus.yml"), "utf8");
    expect(config).toContain("credentials_file: /etc/prometheus/quotabar-token");
    writeFileSync(join(dir, "prometheus.yml"), config.replace("/etc/prometheus/quotabar-token", join(dir, "token")));
    const checked = await runProgram(tools!.promtool, ["check", "config", join(dir, "prometheus.yml")]);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
  });

  it("a real Prometheus scrapes it with the bearer token (as README's scrape config does) and answers a query for the meters", async () => {
    const handle = await serving(TOKEN);
    const dir = mkdtempSync(join(tmpdir(), "qb-prometheus-"));
    dirs.push(dir);
    writeFileSync(join(dir, "token"), `${TOKEN}\n`, { mode: 0o600 });
    writeFileSync(
      join(dir, "prometheus.yml"),
      [
        "global:",
        "  scrape_interval: 1s",
        "scrape_configs:",
        "  - job_name: quotabar",
        "    authorization:",
        `      credentials_file: ${join(dir, "token")}`,
        "    static_configs:",
        `      - targets: ["${new URL(handle.url).host}"]`,
        "",
      ].join("\n"),
    );
    const port = await freePort();
    const prometheus: ChildProcess = spawn(
      tools!.prometheus,
      [
        `--config.file=${join(dir, "prometheus.yml")}`,
        `--storage.tsdb.path=${join(dir, "data")}`,
        `--web.listen-address=127.0.0.1:${port}`,
        "--log.level=warn",
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let log = "";
    prometheus.stderr?.on("data", (d) => (log += d));
    const exited = new Promise<void>((resolve) => prometheus.on("exit", () => resolve()));
    try {
      const query = `http://127.0.0.1:${port}/api/v1/query?query=quotabar_meter_used_percent`;
      let result: { metric: Record<string, string>; value: [number, string] }[] = [];
      // until the first scrape has landed (Prometheus starts, then scrapes every second)
      while (result.length === 0) {
        await new Promise((r) => setTimeout(r, 250));
        const answer = await httpGet(query).catch(() => null);
        if (answer?.status === 200) result = JSON.parse(answer.body).data.result;
        if (prometheus.exitCode !== null) throw new Error(`prometheus exited: ${log}`);
      }
      const warp = result.find((r) => r.metric.provider === "warp" && r.metric.meter === "primary");
      expect(warp?.metric).toMatchObject({ __name__: "quotabar_meter_used_percent", job: "quotabar", provider: "warp", meter: "primary" });
      expect(warp?.value[1]).toBe("81");
      const up = JSON.parse((await httpGet(`http://127.0.0.1:${port}/api/v1/query?query=up`)).body).data.result;
      expect(up.map((r: { value: [number, string] }) => r.value[1])).toEqual(["1"]);
    } finally {
      prometheus.kill("SIGTERM");
      await exited;
    }
  });
});
