import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);

export const AMP_TEST_SESSION = "amp-sim-session-0123456789abcdef";
/** A whole pasted header: only its `session` cookie may reach ampcode.com. */
export const AMP_TEST_COOKIE = `ajs_anonymous_id=amp-sim-anonymous-42; session=${AMP_TEST_SESSION}`;

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

/** Amp: the settings page whose hydration data carries `freeTierUsage`, and the sign-in page it redirects to. */
export const ampUpstream: SimulatedUpstream = {
  id: "amp",
  origins: ["https://ampcode.com"],
  env: { AMP_COOKIE: AMP_TEST_COOKIE },
  scenarios: [
    "ok",
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
    { method: "GET", path: "/settings", handle: settings },
    { method: "GET", path: "/auth/sign-in", handle: () => html(fixture("sign-in.html")) },
  ],
};
