import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROVIDER_IDS } from "../../providers/registry.js";
import { runCli } from "../helpers/cli.js";
import { useSimulator } from "../helpers/harness.js";

const sim = useSimulator();
const TRAP = join(import.meta.dirname, "..", "helpers", "icu-trap.mjs");

/**
 * The first question to ICU pages ~8 MiB of its locale data into the process (a fifth of a
 * refresh's memory): a refresh for a program (--json) and `quotabar providers` ask it nothing. The
 * text view may (it is for people), and so may a provider that must (MiniMax's page dates).
 */
describe("a JSON refresh and the provider list never touch ICU", () => {
  const icuCalls = async (args: string[]) => {
    const file = join(mkdtempSync(join(tmpdir(), "qb-icu-")), "calls.txt");
    await sim.sim.seedHome(sim.home, PROVIDER_IDS);
    const run = await runCli(args, { ...sim.env(), NODE_OPTIONS: `--import=${TRAP}`, ICU_TRAP_FILE: file, TZ: undefined });
    return { run, calls: existsSync(file) ? readFileSync(file, "utf8").trim().split("\n") : [] };
  };

  it("quotabar --json over every provider the simulator plays", async () => {
    const ids = sim.sim.providers.filter((p) => PROVIDER_IDS.includes(p.id) && p.routes.length > 0).map((p) => p.id);
    const { run, calls } = await icuCalls(["--json", ...ids.flatMap((id) => ["-p", id])]);
    const doc = JSON.parse(run.stdout) as { providers: { id: string; ok: boolean }[] };
    expect(doc.providers.filter((p) => !p.ok).map((p) => p.id)).toEqual([]);
    expect(calls).toEqual([]);
  });

  it("quotabar providers", async () => {
    const { run, calls } = await icuCalls(["providers"]);
    expect(run.code).toBe(0);
    expect(calls).toEqual([]);
  });
});
