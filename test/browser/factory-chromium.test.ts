import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readChromiumLocalStorage } from "../../adapters/browser/leveldb/local-storage-classic-level.js";
import { MemorySecretStore } from "../../adapters/secrets/memory-secret-store.js";
import { BetterSqlite } from "../../adapters/sqlite/better-sqlite3.js";
import { createNodeCore } from "../../library/node-core.js";
import { FACTORY_SIM } from "../../providers/factory/simulator.js";
import { WORKOS_CLIENT_IDS } from "../../providers/factory/workos.js";
import { ProviderSimulator } from "../../simulator/server.js";
import { startFactorySignIn } from "../cli/factory-sign-in.js";
import { requireBinaries } from "./real-browsers.js";

/**
 * Factory's browser steps against what a real Chromium writes: headless Chromium signs in to
 * https://app.factory.ai (mapped to a loopback HTTPS server with a throwaway certificate), which
 * sets the session cookie in one profile and puts WorkOS tokens in Local Storage in another. Then
 * quotabar, composed as the CLI composes it on Linux (the secret store kept in memory) and with no
 * configuration, reads usage from the provider simulator.
 */
const bins = requireBinaries("chromium", "openssl");

let signIn: Awaited<ReturnType<typeof startFactorySignIn>>;
let sim: ProviderSimulator;
const homes: string[] = [];

function factoryCore(home: string) {
  return createNodeCore({
    env: { ...sim.env(), HOME: home },
    browsers: {
      sqlite: new BetterSqlite(),
      secrets: new MemorySecretStore(),
      interactive: false,
      platform: "linux",
      chromiumLocalStorage: readChromiumLocalStorage,
    },
  });
}

const factoryRequests = () => sim.requests.filter((r) => r.providerId === "factory");

describe.skipIf(!bins)("factory with a real Chromium profile (Linux, no configuration)", () => {
  let cookiesHome: string;
  let storageHome: string;

  beforeAll(async () => {
    signIn = await startFactorySignIn();
    sim = await ProviderSimulator.start();
    cookiesHome = await signIn.visit("/sign-in");
    storageHome = await signIn.visit("/storage");
    homes.push(cookiesHome, storageHome);
  }, 200_000);

  afterAll(async () => {
    await sim?.stop();
    await signIn?.close();
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  });

  it("step 8: the profile's Factory cookies give usage, and are kept for the next run", async () => {
    sim.requests.length = 0;
    const usage = (await factoryCore(cookiesHome).usage.usage({ providers: ["factory"] })).providers[0]!;
    expect(usage).toMatchObject({ ok: true, source: "web", plan: "Factory Team" });
    expect(usage.primary).toMatchObject({ label: "Standard", usedPercent: 32 });
    expect(usage.details.find((d) => d.label === "Credential")?.value).toMatch(/^Step 8: Chrome\/Firefox cookies \(chromium\/.+\)$/);
    const cookie = String(factoryRequests()[0]?.headers.cookie);
    expect(cookie).toContain(`wos-session=${FACTORY_SIM.sessionCookie}`);
    expect(cookie).toContain("theme=dark");
    const session = JSON.parse(readFileSync(join(cookiesHome, ".config", "quotabar", "factory-session.json"), "utf8"));
    expect(session.cookies).toContainEqual(expect.objectContaining({ Name: "wos-session", Domain: ".factory.ai" }));
  });

  it("step 5: the WorkOS tokens Chromium keeps in Local Storage are minted into a token", async () => {
    sim.requests.length = 0;
    const usage = (await factoryCore(storageHome).usage.usage({ providers: ["factory"] })).providers[0]!;
    expect(usage).toMatchObject({ ok: true, source: "oauth" });
    expect(usage.details.find((d) => d.label === "Credential")?.value).toMatch(/^Step 5: WorkOS tokens in Local Storage \(chromium\/.+\)$/);
    // the access token has expired: the refresh token is exchanged, for the access token's organisation
    expect(JSON.parse(factoryRequests()[0]!.body)).toEqual({
      client_id: WORKOS_CLIENT_IDS[0],
      grant_type: "refresh_token",
      refresh_token: FACTORY_SIM.refreshToken,
      organization_id: FACTORY_SIM.organizationId,
    });
  });

  it("explains step 8's choice by cookie names, never values", async () => {
    // the explanation looks where files live (HOME): without a session file there, the browser step is chosen
    rmSync(join(cookiesHome, ".config", "quotabar", "factory-session.json"), { force: true });
    const explained = (await factoryCore(cookiesHome).explainCookies("factory"))!;
    expect(explained.chosen).toMatchObject({ browser: "step 8", outcome: "chosen" });
    expect(explained.chosen?.cookieNames).toEqual(expect.arrayContaining(["wos-session", "theme"]));
    expect(JSON.stringify(explained)).not.toContain(FACTORY_SIM.sessionCookie);
  });
});
