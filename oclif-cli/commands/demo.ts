import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Flags } from "@oclif/core";
import type { UsageDocument } from "../../domain/usage-document.js";
import { PROVIDER_IDS } from "../../providers/registry.js";
import type { ProviderSimulator } from "../../simulator/server.js";
import { QuotabarCommand, UsageError } from "../base-command.js";
import { reportUsage, usageFlags, withSpinner } from "./usage.js";
import type { Core } from "../../library/compose-core.js";

/** How often `demo --serve` refreshes: the simulator is local, so the page's countdowns and sparklines move. */
const DEMO_SERVE_INTERVAL_MS = 60_000;

export default class Demo extends QuotabarCommand {
  static override summary = "Show the usage views against the built-in provider simulator (no accounts, no network).";
  static override description =
    "Starts the simulator on a loopback port, points QUOTABAR_ORIGIN_MAP at it, and shows every provider it plays. Nothing in your config or cache is read or written. With --serve it keeps running: it serves the usage as `quotabar serve` does, with its page (every provider at a glance in a browser) on a loopback address it prints, and prints the environment to use the simulator from another shell.";
  static override enableJsonFlag = true;
  static override examples = [
    "<%= config.bin %> demo",
    "<%= config.bin %> demo --scenario warp=unlimited --scenario zai=unauthorized",
    "<%= config.bin %> demo --status --scenario status-github=incident",
    "<%= config.bin %> demo --serve",
  ];
  static override flags = {
    ...usageFlags,
    scenario: Flags.string({ description: "Scenario for a provider, as id=name (repeatable)", multiple: true, helpValue: "<id=name>" }),
    serve: Flags.boolean({
      description: "Keep the simulator running, serve its usage and page as `quotabar serve` does, and print their addresses",
    }),
  };

  async run(): Promise<UsageDocument | void> {
    const { flags } = await this.parse(Demo);
    const { ProviderSimulator } = await import("../../simulator/server.js");
    const sim = await ProviderSimulator.start({ liveDates: true });
    const home = mkdtempSync(join(tmpdir(), "quotabar-demo-"));
    try {
      for (const pair of flags.scenario ?? []) this.chooseScenario(sim, pair);
      await sim.seedHome(home); // the local providers' files (IDE folders, a stand-in kiro-cli)
      // everything it keeps stays in its own HOME and in memory: never the user's config, cache or secret store
      const env = { ...sim.env(), HOME: home, PATH: process.env.PATH, QUOTABAR_SECRET_STORE: "memory" };
      const { createNodeCore } = await import("../../library/node-core.js");
      const core = createNodeCore({ env });
      const providers = flags.provider ?? sim.providers.map((p) => p.id).filter((id) => PROVIDER_IDS.includes(id)); // status pages are not providers
      if (flags.serve) return await this.serve(sim, core, providers);
      const service = core.usage;
      const doc = await withSpinner(!this.jsonEnabled(), "Asking the simulator", () =>
        service.usage({ providers, status: flags.status, ...(flags.timeout ? { timeoutMs: flags.timeout * 1000 } : {}) }),
      );
      reportUsage(this, doc, this.color(flags.color));
      return doc;
    } finally {
      rmSync(home, { recursive: true, force: true });
      if (!flags.serve) await sim.stop();
    }
  }

  /** `--scenario id=name`; a wrong one is told that provider's scenarios (every provider's would be a 3 KB line). */
  private chooseScenario(sim: ProviderSimulator, pair: string): void {
    const [id = "", name = ""] = pair.split("=").map((part) => part.trim());
    const upstream = sim.providers.find((p) => p.id === id);
    if (!upstream)
      throw new UsageError(
        `The simulator plays no provider "${id}"`,
        `Give --scenario <id>=<name> with one of: ${sim.providers.map((p) => p.id).join(", ")}`,
      );
    if (!upstream.scenarios.includes(name)) {
      throw new UsageError(
        name === "" ? `--scenario ${id} names no scenario` : `${id} has no scenario "${name}"`,
        `${id} scenarios: ${upstream.scenarios.join(", ")} (e.g. --scenario ${id}=${upstream.scenarios[1] ?? upstream.scenarios[0]})`,
      );
    }
    sim.setScenario(id, name);
  }

  /** The simulator kept running, and `quotabar serve` on it (a loopback port of its own, refreshed every minute): its page's address. */
  private async serve(sim: ProviderSimulator, core: Core, providers: readonly string[]): Promise<void> {
    const { startServe } = await import("../serve/start-serve.js");
    const serving = await startServe({
      core,
      host: "127.0.0.1",
      port: 0,
      intervalMs: DEMO_SERVE_INTERVAL_MS,
      token: null,
      providers,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    this.log(`Open ${serving.url}/ to see every provider at a glance (quotabar serve's page; also /usage, /history, /metrics).\n`);
    this.log(`Provider simulator listening on ${sim.url} (Ctrl-C to stop). In another shell:\n`);
    for (const [name, value] of Object.entries(sim.env())) this.log(`export ${name}='${value}'`);
    this.log("\nthen run e.g. `quotabar -p openrouter`.");
    await new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    await serving.stop();
    await sim.stop();
  }
}
