import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { WARP_TEST_KEY } from "../../providers/warp/simulator.js";
import { runCli } from "../helpers/cli.js";
import { useSimulator } from "../helpers/harness.js";

const sim = useSimulator();
const snapshotFile = () => join(sim.home, ".cache", "quotabar", "snapshots", "warp.json");
const warpJson = async (env: Record<string, string | undefined>, ...args: string[]) => {
  const run = await runCli(["-p", "warp", "--json", ...args], env);
  return { run, warp: JSON.parse(run.stdout).providers[0] };
};

describe("kept snapshots belong to their credential and origin", () => {
  it("serves a snapshot stale only for the same key against the same upstream", async () => {
    expect((await warpJson(sim.env())).warp.ok).toBe(true);
    expect(readFileSync(snapshotFile(), "utf8")).not.toContain(WARP_TEST_KEY);

    sim.sim.setScenario("warp", "upstream_500");
    const sameKey = await warpJson(sim.env());
    expect(sameKey.warp).toMatchObject({ ok: false, stale: true, primary: { used: 1215 } });

    // the simulator's numbers never show up for real use: no credential, or another origin map
    const noKey = await warpJson({ HOME: sim.home, WARP_API_KEY: undefined });
    expect(noKey.warp).toMatchObject({ ok: false, stale: false, primary: null, error: { code: "not_configured" } });
    const elsewhere = JSON.stringify({ "https://app.warp.dev": "http://127.0.0.1:9/app.warp.dev" }); // a closed loopback port
    const otherOrigin = await warpJson({ HOME: sim.home, WARP_API_KEY: WARP_TEST_KEY, QUOTABAR_ORIGIN_MAP: elsewhere });
    expect(otherOrigin.warp).toMatchObject({ stale: false, primary: null, error: { code: "network" } });

    // a new key that is refused never sees the old key's numbers
    sim.sim.setScenario("warp", "unauthorized");
    const otherKey = await warpJson(sim.env({ WARP_API_KEY: "wk-another-key-0000000000" }));
    expect(otherKey.warp).toMatchObject({ ok: false, stale: false, primary: null, error: { code: "unauthorized" } });
  });

  it("forgets with `cache clear` and with `logout`, and heals a directory left where a snapshot goes", async () => {
    expect((await warpJson(sim.env())).warp.ok).toBe(true);
    const clear = await runCli(["cache", "clear", "-p", "warp"], sim.env());
    expect(clear).toMatchObject({ code: 0 });
    expect(clear.stdout).toContain("Forgot what was kept for warp.");
    expect(existsSync(snapshotFile())).toBe(false);

    mkdirSync(join(snapshotFile(), "stray"), { recursive: true });
    expect((await warpJson(sim.env())).warp.ok).toBe(true);
    expect(readFileSync(snapshotFile(), "utf8")).toContain('"usage"');

    await runCli(["logout", "warp"], sim.env());
    expect(readdirSync(join(sim.home, ".cache", "quotabar", "snapshots"))).not.toContain("warp.json");
  });
});
