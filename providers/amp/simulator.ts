import { chmod, mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { fixturesOf } from "../../simulator/fixtures.js";
import { ampSecretsFile } from "./cli-key.js";

const fixture = fixturesOf(import.meta.url);

export const AMP_TEST_SESSION = "amp-sim-session-0123456789abcdef";
/** A whole pasted header: only its `session` cookie may reach ampcode.com. */
export const AMP_TEST_COOKIE = `ajs_anonymous_id=amp-sim-anonymous-42; session=${AMP_TEST_SESSION}`;

/** The API key `amp login` would have stored (the demo writes it into its own home). */
export const AMP_TEST_API_KEY = "sgamp_user_sim_0123456789abcdef0123456789abcdef";

/** The balance each scenario answers at /api/internal; the others answer `ok`'s. */
const BALANCES: Record<string, string> = {
  ok: "balance-free.json",
  cli_bonus: "balance-bonus.json",
  cli_credits: "balance-credits.json",
  cli_daily: "balance-daily.json",
  cli_changed: "balance-changed.json",
  cli_refused: "balance-auth-required.json",
};
/** The scenarios whose home has the Amp CLI's key: the CLI route answers (or, refused, hands over to the page). */
const WITH_CLI_KEY = Object.keys(BALANCES);

/** The page each scenario serves at /settings. */
const PAGES: Record<string, string> = {
  ok: "settings.html",
  prefetched: "settings-prefetched.html",
  missing_rate: "settings-missing-rate.html",
  malformed: "settings-no-usage.html",
  signed_out: "sign-in.html",
};

const html = (body: string): SimReply => ({ body, headers: { "content-type": "text/html; charset=utf-8" } });
/** ampcode.com sends an unknown session to its sign-in page (relative, so it stays under the simulator's prefix). */
const toSignIn: SimReply = { status: 302, headers: { location: "auth/sign-in?returnTo=%2Fsettings" } };

function settings(request: SimRequest, scenario: string): SimReply {
  if (request.headers.cookie !== `session=${AMP_TEST_SESSION}` && scenario !== "signed_out") return toSignIn;
  if (scenario === "expired") return toSignIn;
  if (scenario === "unauthorized") return { status: 401, body: "Unauthorized" };
  if (scenario === "json_form") return html(fixture("settings-json.html").replace("{{DATA}}", fixture("free-tier-usage.json").trim()));
  return html(fixture(PAGES[scenario] ?? "settings.html"));
}

/** `userDisplayBalanceInfo` as JSON-RPC: a wrong key (or method) is refused as ampcode.com refuses it. */
function balance(request: SimRequest, scenario: string): SimReply {
  const rpc = JSON.parse(request.body || "null") as { method?: unknown } | null;
  if (request.headers.authorization !== `Bearer ${AMP_TEST_API_KEY}`)
    return { status: 401, json: { ok: false, error: { code: "auth-required" } } };
  if (rpc?.method !== "userDisplayBalanceInfo") return { status: 400, json: { ok: false, error: { code: "invalid-method" } } };
  return { body: fixture(BALANCES[scenario] ?? "balance-free.json"), headers: { "content-type": "application/json" } };
}

/** The Amp CLI's secrets file (0600, as `amp login` writes it), for the scenarios played through the CLI's key. */
export async function seedAmpHome(home: string, scenario: string): Promise<void> {
  if (!WITH_CLI_KEY.includes(scenario)) return;
  const file = ampSecretsFile({ HOME: home });
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify({ "apiKey@https://ampcode.com/": AMP_TEST_API_KEY }, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
}

/**
 * Amp: the balance API the Amp CLI's key reads (its secrets file laid out in the demo's home), the
 * settings page whose hydration data carries `freeTierUsage`, and the sign-in page it redirects to.
 */
export const ampUpstream: SimulatedUpstream = {
  id: "amp",
  origins: ["https://ampcode.com"],
  env: { AMP_COOKIE: AMP_TEST_COOKIE },
  scenarios: [
    "ok",
    "cli_bonus",
    "cli_credits",
    "cli_daily",
    "cli_changed",
    "cli_refused",
    "prefetched",
    "json_form",
    "missing_rate",
    "signed_out",
    "expired",
    "unauthorized",
    "malformed",
    "slow",
    "upstream_500",
  ],
  routes: [
    { method: "POST", path: "/api/internal", handle: balance },
    { method: "GET", path: "/settings", handle: settings },
    { method: "GET", path: "/auth/sign-in", handle: () => html(fixture("sign-in.html")) },
  ],
  seedHome: (home, scenario) => seedAmpHome(home, scenario),
};
