import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);

/** The session cookie's value the simulator accepts, under any session cookie name. */
export const OLLAMA_TEST_SESSION = "ollama-sim-session-0123456789abcdef";
export const OLLAMA_TEST_COOKIE = `__Secure-session=${OLLAMA_TEST_SESSION}; theme=dark`;

const html = (name: string, status = 200): SimReply => ({
  status,
  body: fixture(name),
  headers: { "content-type": "text/html; charset=utf-8" },
});
/** ollama.com sends an unknown session to its sign-in page (relative, so it stays under the simulator's prefix). */
const toSignIn: SimReply = { status: 302, headers: { location: "signin" } };

const PAGES: Record<string, string> = {
  ok: "settings-pro.html",
  free_hourly: "settings-free-hourly.html",
  max: "settings-max.html",
  malformed: "settings-no-usage.html",
};

function hasSession(request: SimRequest): boolean {
  return String(request.headers.cookie ?? "")
    .split(";")
    .some((pair) => pair.slice(pair.indexOf("=") + 1).trim() === OLLAMA_TEST_SESSION);
}

function settings(request: SimRequest, scenario: string): SimReply {
  if (request.headers.accept?.startsWith("text/html") !== true) return { status: 406, body: "Not Acceptable" };
  if (scenario === "unauthorized") return { status: 401, body: "Unauthorized" };
  if (scenario === "expired" || !hasSession(request)) return toSignIn;
  // the sign-in form served in place of the settings, as a 200
  if (scenario === "signed_out") return html("signin.html");
  if (scenario === "json_answer") return { body: fixture("not-a-page.json"), headers: { "content-type": "application/json" } };
  return html(PAGES[scenario] ?? "settings-pro.html");
}

/** Ollama: the settings page with its Cloud Usage bars, and the sign-in page it redirects to. */
export const ollamaUpstream: SimulatedUpstream = {
  id: "ollama",
  origins: ["https://ollama.com"],
  env: { OLLAMA_COOKIE: OLLAMA_TEST_COOKIE },
  // the pages were captured three hours before the session bar's reset
  recordedAt: "2026-03-12T15:00:00Z",
  scenarios: ["ok", "free_hourly", "max", "signed_out", "expired", "unauthorized", "malformed", "json_answer", "slow", "upstream_500"],
  routes: [
    { method: "GET", path: "/settings", handle: settings },
    { method: "GET", path: "/signin", handle: () => html("signin.html") },
  ],
};
