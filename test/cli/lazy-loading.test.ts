import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PROVIDER_IDS } from "../../providers/registry.js";
import { runCli } from "../helpers/cli.js";
import { useSimulator } from "../helpers/harness.js";
import { writeConfig } from "../helpers/write-config.js";

const sim = useSimulator();
const TRAP = join(import.meta.dirname, "..", "helpers", "load-trap.mjs");
const ROOT = join(import.meta.dirname, "..", "..");

/** The sources (repository paths) bundled into the modules a CLI run loaded, from their source maps. */
async function sourcesLoaded(args: string[], env: Record<string, string | undefined> = {}, code = 0) {
  const file = join(mkdtempSync(join(tmpdir(), "qb-load-")), "loaded.txt");
  const run = await runCli(args, { ...sim.env(), ...env, NODE_OPTIONS: `--import=${TRAP}`, LOAD_TRAP_FILE: file });
  expect(run.code, run.stderr).toBe(code);
  const urls = existsSync(file) ? readFileSync(file, "utf8").trim().split("\n") : [];
  const sources = new Set<string>();
  for (const url of urls.filter((u) => u.startsWith("file:") && u.includes("/dist/"))) {
    const map = `${fileURLToPath(url)}.map`;
    if (!existsSync(map)) continue;
    const { sources: inMap } = JSON.parse(readFileSync(map, "utf8")) as { sources: string[] };
    for (const source of inMap) sources.add(join(fileURLToPath(new URL(".", url)), source).slice(ROOT.length + 1));
  }
  return { run, sources: [...sources], builtins: urls.filter((u) => u.startsWith("node:")) };
}

/**
 * `quotabar providers` looks for every provider's credentials and reads nothing from any upstream:
 * it loads the providers' strategies, never their wire code (requests, zod schemas of upstream
 * bodies, page parsers), and no zod at all (the config file is checked without it).
 */
describe("what a run loads", () => {
  /** The code of providers other than `but` (the registry and the descriptors are data every run may read). */
  const providerCode = (sources: string[], but = "") =>
    sources.filter(
      (s) => /^providers\/[^/]+\//.test(s) && !s.startsWith(`providers/${but}/`) && !/^providers\/[^/]+\/descriptor\.ts$/.test(s),
    );
  const wireOrZod = (sources: string[]) =>
    sources.filter(
      (s) => s.startsWith("node_modules/zod/") || /^providers\/[^/]+\/wire[^/]*\.ts$/.test(s) || s === "providers/kit/schema.ts",
    );

  it("quotabar providers (and --json), with every provider's credentials found: no wire, no zod", async () => {
    await sim.sim.seedHome(sim.home, PROVIDER_IDS);
    for (const args of [["providers"], ["providers", "--json"]]) {
      const { run, sources } = await sourcesLoaded(args);
      expect(run.stdout).toContain("openrouter");
      expect(sources).toContain("providers/openrouter/index.ts");
      expect(wireOrZod(sources)).toEqual([]);
    }
  });

  it("a bar poll never loads node:crypto (~5 ms): no hash is needed to read kept snapshots", async () => {
    await sim.sim.seedHome(sim.home, ["openrouter"]);
    expect((await runCli(["bar", "-p", "openrouter"], sim.env())).code).toBe(0); // the first poll fetches and keeps
    const { builtins } = await sourcesLoaded(["bar", "--format", "waybar", "-p", "openrouter"]);
    expect(builtins).toContain("node:fs");
    expect(builtins).not.toContain("node:crypto");
    // a refresh hashes its credential for the cache: the trap sees node:crypto when it is loaded
    const refresh = await sourcesLoaded(["-p", "openrouter", "--json"]);
    expect(refresh.builtins).toContain("node:crypto");
  });

  it("with a config file to check: still no wire and no zod", async () => {
    const removeConfig = writeConfig(sim.home, { providers: [{ id: "openrouter", apiKey: "sk-or-v1-test" }] });
    const { run, sources } = await sourcesLoaded(["providers"]).finally(removeConfig);
    expect(run.stdout).toMatch(/openrouter +OpenRouter +found +yes/);
    expect(sources).toContain("adapters/config/parse-config.ts");
    expect(wireOrZod(sources)).toEqual([]);
  });

  it("quotabar bar from kept snapshots (a status bar's poll): no oclif, no provider module, no zod, no prom-client", async () => {
    await sim.sim.seedHome(sim.home, ["openrouter"]);
    expect((await runCli(["bar", "-p", "openrouter"], sim.env())).code).toBe(0); // the first poll fetches and keeps
    const { run, sources } = await sourcesLoaded(["bar", "--format", "waybar", "-p", "openrouter"]);
    expect(JSON.parse(run.stdout).text).toBe("openrouter 37%");
    expect(sources).toContain("oclif-cli/render/bar/waybar.ts");
    const heavy = sources.filter((s) => /^node_modules\/(zod|@oclif|prom-client)\//.test(s) || s === "library/compose-core.ts");
    expect(heavy).toEqual([]);
    expect(providerCode(sources)).toEqual([]);
  });

  it("quotabar providers and --version never load quotabar serve or prom-client", async () => {
    for (const args of [["providers"], ["--version"]]) {
      const { sources } = await sourcesLoaded(args);
      expect(sources.filter((s) => s.startsWith("node_modules/prom-client/") || s.startsWith("oclif-cli/serve/"))).toEqual([]);
    }
  });

  it("a refresh loads the wire of the provider it reads, and no oclif when its flags are plain", async () => {
    await sim.sim.seedHome(sim.home, ["openrouter"]);
    for (const args of [
      ["-p", "openrouter", "--json"],
      ["usage", "-p", "openrouter", "--timeout", "5"],
    ]) {
      const { sources } = await sourcesLoaded(args);
      expect(sources).toContain("providers/openrouter/wire.ts");
      // one provider asked, one provider's code loaded (and the kit it stands on)
      expect(providerCode(sources, "openrouter").filter((s) => !s.startsWith("providers/kit/"))).toEqual([]);
      expect(
        sources.filter((s) => s.startsWith("node_modules/@oclif/")),
        args.join(" "),
      ).toEqual([]);
      // got without its HTTP/2 client, response cache and DNS cache (scripts/build.mjs leaves them out: quotabar never asks for them)
      expect(sources).toContain("node_modules/got/dist/source/core/options.js");
      expect(
        sources.filter((s) =>
          /^node_modules\/(http2-wrapper|cacheable-request|cacheable-lookup|keyv|http-cache-semantics|normalize-url)\//.test(s),
        ),
      ).toEqual([]);
    }
    // what the plain reading leaves to oclif (a flag given twice): oclif runs the command and says what is wrong
    const { run, sources } = await sourcesLoaded(["-p", "openrouter", "--json", "--source", "api", "--source", "api"], {}, 2);
    expect(sources).toContain("oclif-cli/commands/usage.ts");
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { code: "usage", message: expect.stringContaining("--source") } });
  });

  it("quotabar cost with plain flags: no oclif; a date that is not one goes to oclif, which says so", async () => {
    const { run, sources } = await sourcesLoaded(["cost", "--agent", "codex", "--by", "month", "--json"]);
    expect(JSON.parse(run.stdout)).toMatchObject({ version: 1, agents: ["codex"] });
    expect(sources).toContain("oclif-cli/cost-plain.ts");
    expect(sources.filter((s) => s.startsWith("node_modules/@oclif/"))).toEqual([]);
    const refused = await sourcesLoaded(["cost", "--since", "2026-02-30"], {}, 2);
    expect(refused.sources).toContain("oclif-cli/commands/cost.ts");
    expect(refused.run.stderr).toContain("--since must be a date");
  });
});
