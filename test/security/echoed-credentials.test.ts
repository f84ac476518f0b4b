import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { useSimulator } from "../helpers/harness.js";
import { filesUnder } from "../helpers/leaks.js";

const sim = useSimulator();

/** The credentials the simulator hands out, and the pieces of cookie headers (each cookie value is a secret). */
function credentials(): string[] {
  const values = Object.entries(sim.sim.env())
    .filter(([name]) => name !== "QUOTABAR_ORIGIN_MAP")
    .map(([, value]) => value);
  const cookieValues = values.flatMap((v) => (v.includes("=") ? v.split(";").map((p) => p.split("=").slice(1).join("=").trim()) : []));
  return [...values, ...cookieValues].filter((v) => v.length >= 8);
}

describe("an upstream that echoes the request's headers back", () => {
  it("never gets a credential printed (text, JSON, stderr) or kept in the cache, for any provider", async () => {
    const ids = sim.sim.providers.filter((p) => !p.id.startsWith("status-")).map((p) => p.id);
    const secrets = credentials();
    expect(secrets.length).toBeGreaterThan(ids.length / 2);
    for (const scenario of ["echo_headers", "echo_headers_ok"]) {
      for (const id of ids) sim.sim.setScenario(id, scenario);
      const runs = await Promise.all([
        runCli(["--json", "--status", ...ids.flatMap((id) => ["-p", id])], sim.env()),
        runCli(["--no-color", ...ids.flatMap((id) => ["-p", id])], sim.env()),
      ]);
      const printed = [...runs.flatMap((r) => [r.stdout, r.stderr]), ...filesUnder(join(sim.home, ".cache"))].join("\n");
      expect(JSON.parse(runs[0]!.stdout).providers).toHaveLength(ids.length);
      for (const secret of secrets) expect(printed, `${scenario}: a credential was printed`).not.toContain(secret);
      expect(printed).not.toMatch(/authorization: (Bearer|token) [A-Za-z0-9]/i);
    }
  });
});
