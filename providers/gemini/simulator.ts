import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FixtureDates, SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { bearer } from "../../simulator/auth.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);

interface Creds {
  access_token: string;
  refresh_token: string;
}
interface Minted {
  access_token: string;
}

/** Two Google accounts: a Workspace one (its quota shows) and a personal one (refused since June 2026). */
const WORKSPACE = JSON.parse(fixture("oauth-creds-workspace.json")) as Creds;
const PERSONAL = JSON.parse(fixture("oauth-creds-personal.json")) as Creds;
const WORKSPACE_MINTED = (JSON.parse(fixture("token-workspace.json")) as Minted).access_token;
const PERSONAL_MINTED = (JSON.parse(fixture("token-personal.json")) as Minted).access_token;

/** The Gemini CLI's public OAuth client: the token requests with it are Gemini's (Vertex AI's carry gcloud's). */
export const GEMINI_CLIENT_ID = "681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com";
const GEMINI_CLIENT_SECRET = "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";

export const GEMINI_SIM = {
  workspace: { ...WORKSPACE, minted: WORKSPACE_MINTED },
  personal: { ...PERSONAL, minted: PERSONAL_MINTED },
  /** The project the Workspace scenarios' loadCodeAssist names, and the one a test sets for `no_project`. */
  project: "rapid-glacier-4kq2m",
  standardProject: "acme-code-assist",
  envProject: "acme-workspace-ai",
};
export const GEMINI_SECRETS = [WORKSPACE, PERSONAL]
  .flatMap((c) => [c.access_token, c.refresh_token])
  .concat(WORKSPACE_MINTED, PERSONAL_MINTED);

/** The moment the fixtures describe: the files' tokens expired an hour before, the quotas reset the next morning. */
const RECORDED_AT = "2026-08-21T14:00:00Z";

const SCENARIOS = [
  "ok",
  "standard",
  "flash_only",
  "over_full",
  "empty",
  "consumer_refused",
  "refused_at_refresh",
  "refresh_refused",
  "not_onboarded",
  "no_project",
  "rate_limited",
  "unauthorized",
  "api_key",
  "vertex",
  "signed_out",
  "slow",
  "upstream_500",
];

const json = (name: string, status = 200): SimReply => ({
  status,
  body: fixture(name),
  headers: { "content-type": "application/json; charset=UTF-8" },
});

/** POST /token with the Gemini CLI's client: the refresh grant, every secret in the form body. */
function token(request: SimRequest, scenario: string): SimReply {
  const form = new URLSearchParams(request.body);
  if (!String(request.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded") || [...request.query].length > 0) {
    return { status: 400, json: { error: "invalid_request", error_description: "form body expected" } };
  }
  if (form.get("grant_type") !== "refresh_token") return { status: 400, json: { error: "unsupported_grant_type" } };
  if (form.get("client_secret") !== GEMINI_CLIENT_SECRET) {
    return { status: 401, json: { error: "invalid_client", error_description: "Unauthorized" } };
  }
  if (scenario === "refused_at_refresh") return json("consumer-refused.json", 400);
  const refresh = form.get("refresh_token");
  if (scenario === "refresh_refused" || (refresh !== WORKSPACE.refresh_token && refresh !== PERSONAL.refresh_token)) {
    return json("token-invalid-grant.json", 400);
  }
  return json(refresh === WORKSPACE.refresh_token ? "token-workspace.json" : "token-personal.json");
}

/** Whose the bearer is: the Workspace account, the personal one, or nobody's. */
function accountOf(request: SimRequest): "workspace" | "personal" | null {
  const token = bearer(request);
  if (token === WORKSPACE.access_token || token === WORKSPACE_MINTED) return "workspace";
  if (token === PERSONAL.access_token || token === PERSONAL_MINTED) return "personal";
  return null;
}

/** The checks every Code Assist call makes: a known bearer, a JSON body; the personal account is refused (June 2026). */
function refusedCall(request: SimRequest, scenario: string): SimReply | null {
  const account = accountOf(request);
  if (scenario === "unauthorized" || account === null) return json("unauthenticated.json", 401);
  if (account === "personal") return json("consumer-refused.json", 403);
  if (!String(request.headers["content-type"] ?? "").startsWith("application/json")) {
    return { status: 400, json: { error: { code: 400, message: "Invalid JSON payload received.", status: "INVALID_ARGUMENT" } } };
  }
  return null;
}

const LOAD: Record<string, string> = {
  standard: "load-code-assist-standard.json",
  not_onboarded: "load-code-assist-not-onboarded.json",
  no_project: "load-code-assist-no-project.json",
};

function loadCodeAssist(request: SimRequest, scenario: string): SimReply {
  const refused = refusedCall(request, scenario);
  if (refused) return refused;
  const body = JSON.parse(request.body || "{}") as { metadata?: { pluginType?: string } };
  if (body.metadata?.pluginType !== "GEMINI") {
    return { status: 400, json: { error: { code: 400, message: "metadata.pluginType is required.", status: "INVALID_ARGUMENT" } } };
  }
  return json(LOAD[scenario] ?? "load-code-assist-workspace.json");
}

const QUOTA: Record<string, string> = {
  standard: "quota-exhausted.json",
  flash_only: "quota-flash-only.json",
  over_full: "quota-over-full.json",
  empty: "quota-empty.json",
};

function retrieveUserQuota(request: SimRequest, scenario: string): SimReply {
  const refused = refusedCall(request, scenario);
  if (refused) return refused;
  const { project } = JSON.parse(request.body || "{}") as { project?: string };
  const expected =
    scenario === "standard" ? GEMINI_SIM.standardProject : scenario === "no_project" ? GEMINI_SIM.envProject : GEMINI_SIM.project;
  if (project !== expected) {
    return {
      status: 403,
      json: { error: { code: 403, message: `Permission denied on resource project ${project}.`, status: "PERMISSION_DENIED" } },
    };
  }
  if (scenario === "rate_limited") return json("rate-limited.json", 429);
  return json(QUOTA[scenario] ?? "quota-midday.json");
}

export const geminiUpstream: SimulatedUpstream = {
  id: "gemini",
  origins: ["https://oauth2.googleapis.com", "https://cloudcode-pa.googleapis.com"],
  env: {},
  scenarios: SCENARIOS,
  recordedAt: RECORDED_AT,
  routes: [
    {
      method: "POST",
      path: "/token",
      handle: token,
      // Google's token endpoint serves Vertex AI too: the Gemini CLI's client says the request is Gemini's
      accepts: (request) => new URLSearchParams(request.body).get("client_id") === GEMINI_CLIENT_ID,
    },
    { method: "POST", path: "/v1internal:loadCodeAssist", handle: loadCodeAssist },
    { method: "POST", path: "/v1internal:retrieveUserQuota", handle: retrieveUserQuota },
  ],
  seedHome: (home, scenario, dates) => seedGeminiHome(home, scenario, dates),
};

/**
 * A home as the Gemini CLI leaves it after "Login with Google": ~/.gemini with the sign-in (its
 * access token expired an hour before the recording, as after a night), the settings and the
 * accounts file. `consumer_refused` and `refused_at_refresh` sign in with the personal account.
 * ~/.gemini-personal holds the personal account in every scenario, for a second `geminiDir`.
 */
export async function seedGeminiHome(home: string, scenario = "ok", dates: FixtureDates = (text) => text): Promise<void> {
  const personal = scenario === "consumer_refused" || scenario === "refused_at_refresh";
  const settings =
    scenario === "api_key" ? "settings-api-key.json" : scenario === "vertex" ? "settings-vertex.json" : "settings-oauth.json";
  await writeGeminiDir(join(home, ".gemini"), {
    creds: scenario === "signed_out" ? null : personal ? "oauth-creds-personal.json" : "oauth-creds-workspace.json",
    settings,
    dates,
  });
  await writeGeminiDir(join(home, ".gemini-personal"), { creds: "oauth-creds-personal.json", settings: "settings-oauth.json", dates });
}

async function writeGeminiDir(dir: string, files: { creds: string | null; settings: string; dates: FixtureDates }): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (files.creds !== null) await writeFile(join(dir, "oauth_creds.json"), files.dates(fixture(files.creds), RECORDED_AT), { mode: 0o600 });
  await writeFile(join(dir, "settings.json"), fixture(files.settings));
  await writeFile(join(dir, "google_accounts.json"), fixture("google-accounts.json"));
}
