import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FACTORY_SIM } from "../../providers/factory/simulator.js";
import { requireBinaries } from "../browser/real-browsers.js";
import { runCli } from "../helpers/cli.js";
import { useSimulator } from "../helpers/harness.js";
import { startFactorySignIn } from "./factory-sign-in.js";

/**
 * `quotabar -p factory` as a user on Linux runs it (the built bin, no config file, no flags): it
 * finds the session a real Chromium keeps and reads usage from the simulator. The child gets only
 * the environment given here (no D-Bus address), so the OS keyring is not there and nothing of the
 * developer's is touched; the cookie header is then kept nowhere but the session file.
 */
const bins = requireBinaries("chromium", "openssl");
const sim = useSimulator();
const SECRETS = [FACTORY_SIM.sessionCookie, FACTORY_SIM.refreshToken, FACTORY_SIM.expiredBearer, FACTORY_SIM.mintedBearer];

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
  );

describe.skipIf(!bins)("quotabar -p factory with a real Chromium profile", () => {
  let signIn: Awaited<ReturnType<typeof startFactorySignIn>>;
  let home: string;

  beforeAll(async () => {
    signIn = await startFactorySignIn();
    home = await signIn.visit("/sign-in");
  }, 120_000);

  afterAll(async () => {
    await signIn?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("answers with no configuration, and no cookie value reaches the output or any file but the session file", async () => {
    const result = await runCli(["-p", "factory", "--json"], sim.env({ HOME: home }));
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const usage = JSON.parse(result.stdout).providers[0];
    expect(usage).toMatchObject({ id: "factory", ok: true, source: "web", plan: "Factory Team" });
    expect(usage.primary).toMatchObject({ label: "Standard", usedPercent: 32 });
    expect(usage.secondary).toMatchObject({ label: "Premium", usedPercent: 15 });
    expect(usage.details).toContainEqual({
      label: "Credential",
      value: expect.stringMatching(/^Step 8: Chrome\/Firefox cookies \(chromium\//),
    });
    // the next run answers from the cookies the first one kept in the session file
    const text = await runCli(["-p", "factory"], sim.env({ HOME: home }));
    expect(text.stdout).toMatch(/Standard +█+░+ +32% +6\.4M \/ 20M tokens/);
    expect(text.stdout).toContain("Credential: Step 2: stored session cookies");
    const session = join(home, ".config", "quotabar", "factory-session.json");
    const written = files(join(home, ".config", "quotabar")).concat(files(join(home, ".cache")));
    expect(written).toContain(session);
    for (const out of [result.stdout, result.stderr, text.stdout, text.stderr])
      for (const secret of SECRETS) expect(out).not.toContain(secret);
    for (const file of written.filter((f) => f !== session)) {
      const content = readFileSync(file, "utf8");
      for (const secret of SECRETS) expect(content, file).not.toContain(secret);
    }
  });

  it("quotabar cookies factory: each step, and the Chromium profile chosen by cookie names", async () => {
    const result = await runCli(["cookies", "factory", "--json"], sim.env({ HOME: home }));
    expect(result.code).toBe(0);
    const explained = JSON.parse(result.stdout) as { chosen: { browser: string; cookieNames: string[] }; notes: { browser: string }[] };
    // the session file the run above wrote comes first (step 2); the browser is still looked at (step 8)
    expect(explained.notes.filter((n) => n.browser.startsWith("step ")).map((n) => n.browser)).toEqual(
      Array.from({ length: 9 }, (_, i) => `step ${i + 1}`),
    );
    expect(explained.chosen.cookieNames).toEqual(expect.arrayContaining(["wos-session"]));
    for (const secret of SECRETS) expect(result.stdout + result.stderr).not.toContain(secret);
  });

  it("quotabar status -p factory reads its Statuspage", async () => {
    sim.sim.setScenario("status-factory", "incident");
    const result = await runCli(["status", "-p", "factory", "--json"], sim.env({ HOME: home }));
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout).providers[0];
    expect(report).toMatchObject({ id: "factory", kind: "statuspage", url: "https://status.factory.ai" });
    expect(report.status.incidents.length).toBeGreaterThan(0);
  });
});
