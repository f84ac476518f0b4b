import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import Serve from "../../oclif-cli/commands/serve.js";
import { createMetrics } from "../../oclif-cli/serve/metrics.js";
import { ServeState } from "../../oclif-cli/serve/serve-state.js";

const CONTRIB = join(import.meta.dirname, "..", "..", "contrib");
const read = (path: string) => readFileSync(join(CONTRIB, path), "utf8");

/** The flags a `quotabar serve ...` command line gives, each one the command has. */
function serveFlags(args: string[]): string[] {
  expect(args.slice(0, 2)).toEqual(["quotabar", "serve"]);
  const flags = args.filter((arg) => arg.startsWith("--")).map((arg) => arg.slice(2).split("=")[0] as string);
  for (const flag of flags) expect(Object.keys(Serve.flags), flag).toContain(flag);
  return flags;
}

describe("contrib/: what README tells people to install runs quotabar serve as it is", () => {
  it("the systemd user unit starts quotabar serve with flags it has, on loopback", () => {
    const unit = read("systemd/quotabar-serve.service");
    const exec = /^ExecStart=\/usr\/bin\/env (.+)$/m.exec(unit)?.[1]?.split(" ") ?? [];
    expect(serveFlags(exec)).toEqual(["host", "port", "interval"]);
    expect(exec.slice(exec.indexOf("--host"), exec.indexOf("--host") + 2)).toEqual(["--host", "127.0.0.1"]);
    expect(unit).toMatch(/^WantedBy=default\.target$/m);
  });

  it("the launchd agent does the same (a property list of strings, KeepAlive unless it exits cleanly)", () => {
    const plist = read("launchd/quotabar.serve.plist");
    const args = [
      ...(/<key>ProgramArguments<\/key>\s*<array>([\s\S]*?)<\/array>/.exec(plist)?.[1] ?? "").matchAll(/<string>([^<]*)<\/string>/g),
    ].map((m) => m[1] as string);
    expect(args[0]).toBe("/usr/bin/env");
    expect(serveFlags(args.slice(1))).toEqual(["host", "port", "interval"]);
    expect(plist).toContain("<key>Label</key>\n  <string>quotabar.serve</string>");
  });

  it("every query of the Grafana dashboard names metrics /metrics has, and there is a panel per meter", async () => {
    const dashboard = JSON.parse(read("grafana/quotabar-dashboard.json")) as {
      panels: { title: string; targets: { expr: string }[] }[];
      templating: { list: { query: { query: string } }[] };
    };
    const state = new ServeState([]);
    const exposed = [
      ...(await createMetrics(state, { HOME: "/nonexistent-quotabar-home" }).text(new Date())).matchAll(/^# TYPE (\w+) /gm),
    ].map((m) => m[1]);
    const queries = [
      ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)),
      ...dashboard.templating.list.map((v) => v.query.query),
    ];
    for (const query of queries) {
      const names = query.match(/\bquotabar_\w+/g) ?? [];
      expect(names.length, query).toBeGreaterThan(0);
      for (const name of names) expect(exposed, query).toContain(name);
    }
    for (const role of ["primary", "secondary", "tertiary"]) {
      expect(dashboard.panels.some((p) => p.targets.some((t) => t.expr.includes(`meter="${role}"`)))).toBe(true);
    }
  });
});
