import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createQuotabar } from "../../index.js";
import { KIMI_TEST_API_KEY, KIMI_TEST_TOKEN } from "../../providers/kimi/simulator.js";
import { ProviderSimulator } from "../../simulator/server.js";
import { tempHome } from "../helpers/harness.js";

/**
 * The last good snapshot is served (stale, with the error) when a later fetch fails with the same
 * credential, whatever that failing run happened to read: Kimi with both an API key and a kimi-auth
 * token (the failing key hands over to the cookie route), Vertex AI (whose good run mints an access
 * token that a failing run never gets). Another key, or another Google sign-in, never sees it.
 */

type Usage = Awaited<ReturnType<ReturnType<typeof createQuotabar>["usage"]>>["providers"][number];

describe("a stale snapshot is scoped by the credential the configuration names", () => {
  let sim: ProviderSimulator;
  let home: string;
  const homes: string[] = [];

  beforeAll(async () => {
    sim = await ProviderSimulator.start();
  });
  afterEach(async () => {
    await sim.stop().catch(() => undefined);
    sim = await ProviderSimulator.start();
  });
  afterAll(async () => {
    await sim.stop().catch(() => undefined);
    for (const dir of homes) rmSync(dir, { recursive: true, force: true });
  });

  /** A user's HOME with the gcloud sign-in and Claude Code logs the simulator goes with. */
  async function newHome(): Promise<string> {
    home = tempHome();
    homes.push(home);
    await sim.seedHome(home, ["vertexai"]);
    return home;
  }

  /** One run of the library, every request to the origin map of `origins` (the simulator while it runs). */
  async function fetch(id: string, origins: Record<string, string>, env: Record<string, string | undefined> = {}): Promise<Usage> {
    const quotabar = createQuotabar({
      env: {
        ...sim.env(),
        QUOTABAR_ORIGIN_MAP: JSON.stringify(origins),
        HOME: home,
        PATH: process.env.PATH,
        QUOTABAR_SECRET_STORE: "memory",
        ...env,
      },
    });
    return (await quotabar.usage({ providers: [id], timeoutMs: 10_000 })).providers[0] as Usage;
  }

  it("Kimi with a key and a kimi-auth token: the upstream down serves the last good snapshot", async () => {
    await newHome();
    const origins = sim.originMap();
    const env = { KIMI_CODE_API_KEY: KIMI_TEST_API_KEY, KIMI_AUTH_TOKEN: KIMI_TEST_TOKEN };
    const good = await fetch("kimi", origins, env);
    expect(good).toMatchObject({ ok: true, stale: false, source: "api" });

    await sim.stop(); // the same origin map now points at a closed port
    const down = await fetch("kimi", origins, env);
    expect(down).toMatchObject({ ok: false, stale: true, source: "api", error: { code: "network" } });
    expect(down.primary).toEqual(good.primary);
    expect(down.fetchedAt).toBe(good.fetchedAt);

    // another key, the same kimi-auth token: not the first key's numbers
    const otherKey = await fetch("kimi", origins, { ...env, KIMI_CODE_API_KEY: "sk-kimi-someone-else-0123456789abcdef" });
    expect(otherKey).toMatchObject({ ok: false, stale: false, primary: null });
  });

  it("Kimi: an upstream answering 500 to both routes serves it too", async () => {
    await newHome();
    const origins = sim.originMap();
    const env = { KIMI_CODE_API_KEY: KIMI_TEST_API_KEY, KIMI_AUTH_TOKEN: KIMI_TEST_TOKEN };
    expect(await fetch("kimi", origins, env)).toMatchObject({ ok: true });
    sim.setScenario("kimi", "upstream_500");
    expect(await fetch("kimi", origins, env)).toMatchObject({ ok: false, stale: true, error: { code: "upstream" } });
  });

  it("Vertex AI: after a good run (an access token minted and kept), Google down serves the last good snapshot", async () => {
    await newHome();
    const origins = sim.originMap();
    const good = await fetch("vertexai", origins);
    expect(good).toMatchObject({ ok: true, stale: false });
    // a second good run uses the kept token: the snapshot it writes must match a run that has none
    expect(await fetch("vertexai", origins)).toMatchObject({ ok: true });

    sim.setScenario("vertexai", "upstream_500");
    const failing = await fetch("vertexai", origins);
    expect(failing).toMatchObject({ ok: false, stale: true, source: "oauth" });
    expect(failing.primary).toEqual(good.primary);

    await sim.stop(); // nothing answers: the token cannot be refreshed either
    const down = await fetch("vertexai", origins);
    expect(down).toMatchObject({ ok: false, stale: true, error: { code: "network" } });
    expect(down.primary).toEqual(good.primary);
  });

  it("Vertex AI: another Google sign-in (another refresh token) never sees the first one's snapshot", async () => {
    await newHome();
    const origins = sim.originMap();
    expect(await fetch("vertexai", origins)).toMatchObject({ ok: true });
    await sim.stop();
    const adc = join(home, ".config", "gcloud", "application_default_credentials.json");
    const file = JSON.parse(readFileSync(adc, "utf8")) as Record<string, unknown>;
    writeFileSync(adc, JSON.stringify({ ...file, refresh_token: "1//another-person-refresh-token-0123456789" }));
    expect(await fetch("vertexai", origins)).toMatchObject({ ok: false, stale: false, primary: null });
  });
});
