import { meter, unlimitedMeter } from "../../domain/meter.js";
import { withPace } from "../../domain/pace.js";
import { advice } from "../../domain/remedy.js";
import type { ProviderUsage, UsageDocument } from "../../domain/usage-document.js";
import type { ProviderListing } from "../../domain/usage-service.js";
import { DESCRIPTORS } from "../../providers/registry.js";
import { raycastRemedyWriter } from "../shared/remedy-text.js";

/** Hints as the core writes them in Raycast: the providers' remedies through Raycast's remedy writer. */
const hint = raycastRemedyWriter();

/** Hand-made documents for the view-model tests; every field the contract has, defaults filled. */
export const NOW = new Date("2026-11-20T16:00:00.000Z");

export function usage(fields: Partial<ProviderUsage> & Pick<ProviderUsage, "id" | "name">): ProviderUsage {
  return {
    ok: true,
    source: "api",
    plan: null,
    primary: null,
    secondary: null,
    tertiary: null,
    details: [],
    status: null,
    fetchedAt: "2026-11-20T15:59:00.000Z",
    stale: false,
    error: null,
    ...fields,
  };
}

export const copilot = usage({
  id: "copilot",
  name: "GitHub Copilot",
  source: "oauth",
  plan: "Pro",
  primary: meter("Premium", { usedPercent: 37.5, used: 112.5, limit: 300, unit: "requests", resetsAt: "2026-12-01T00:00:00.000Z" }),
  secondary: meter("Chat", { usedPercent: 10 }),
  details: [{ label: "Chat", value: "Unlimited" }],
  status: { indicator: "none", description: "All Systems Operational", url: "https://www.githubstatus.com", incidents: [] },
});

export const warp = usage({
  id: "warp",
  name: "Warp",
  primary: meter("Credits", { usedPercent: 81, used: 1215, limit: 1500, unit: "credits", resetsAt: "2026-12-01T19:16:33.462Z" }),
  secondary: meter("Add-on credits", {
    usedPercent: 60,
    used: 15,
    limit: 25,
    unit: "credits",
    note: "10 credits expire on 2026-12-05 10:00 UTC",
  }),
});

export const warpUnlimited = usage({
  id: "warp",
  name: "Warp",
  plan: "Turbo",
  primary: unlimitedMeter("Credits", { used: 4200, unit: "credits" }),
});

export const openrouterNearLimit = usage({
  id: "openrouter",
  name: "OpenRouter",
  primary: meter("Credits", { usedPercent: 94.5, used: 18.9, limit: 20, unit: "USD", note: "Credit values may be up to 60 s old" }),
  secondary: meter("Rate limit", { note: "200 requests / 10s" }),
  details: [{ label: "Balance", value: "$1.10" }],
});

export const zaiStale = usage({
  id: "zai",
  name: "z.ai",
  ok: false,
  plan: "GLM Coding Pro",
  primary: meter("Tokens", { usedPercent: 29.32, used: 23456789, limit: 80000000, unit: "tokens", resetsAt: "2026-11-24T12:00:00.000Z" }),
  fetchedAt: "2026-11-20T14:00:00.000Z",
  stale: true,
  error: { code: "upstream", message: "z.ai API error: HTTP 500", hint: hint([advice("z.ai is having trouble."), { kind: "retry" }]) },
});

export const warpUnauthorized = usage({
  id: "warp",
  name: "Warp",
  ok: false,
  source: null,
  fetchedAt: null,
  error: {
    code: "unauthorized",
    message: "Warp API error: HTTP 401",
    hint: hint([
      advice("The token is invalid, or the network cannot reach app.warp.dev."),
      { kind: "set-key", provider: "warp", env: ["WARP_API_KEY"] },
    ]),
  },
});

export const kimik2Missing = usage({
  id: "kimik2",
  name: "Kimi K2 (unofficial)",
  ok: false,
  source: null,
  fetchedAt: null,
  error: {
    code: "not_configured",
    message: "Kimi K2 API key not found",
    hint: hint([{ kind: "set-key", provider: "kimik2", env: ["KIMI_K2_API_KEY"] }]),
  },
});

export const copilotIncident = usage({
  ...copilot,
  status: {
    indicator: "major",
    description: "Partial System Outage",
    url: "https://www.githubstatus.com",
    incidents: [
      {
        name: "Degraded performance for Copilot",
        impact: "major",
        url: "https://www.githubstatus.com/incidents/abc123",
        updatedAt: "2026-11-20T15:30:00.000Z",
      },
    ],
  },
});

/**
 * z.ai with a pace on both windows, as the core computes it at NOW from the windows alone: the
 * 5-hour one (3 hours to go, 40 % of it gone) in reserve and lasting; the weekly one (5d 12h to go,
 * 21.4 % gone) ahead of pace, running out in 3d 7h, 2d 4h before its reset.
 */
export const zaiPaced = withPace(
  usage({
    id: "zai",
    name: "z.ai",
    plan: "GLM Coding Pro",
    primary: meter("Tokens", {
      usedPercent: 29.32,
      used: 23456789,
      limit: 80000000,
      unit: "tokens",
      resetsAt: "2026-11-20T19:00:00.000Z",
      windowMinutes: 300,
    }),
    secondary: meter("Weekly tokens", {
      usedPercent: 31.25,
      used: 125000000,
      limit: 400000000,
      unit: "tokens",
      resetsAt: "2026-11-26T04:00:00.000Z",
      windowMinutes: 10080,
    }),
  }),
  NOW,
);

export function doc(...providers: ProviderUsage[]): UsageDocument {
  return { version: 1, generatedAt: NOW.toISOString(), providers };
}

export const copilotMissing = usage({
  id: "copilot",
  name: "GitHub Copilot",
  ok: false,
  source: null,
  fetchedAt: null,
  error: {
    code: "not_configured",
    message: "GitHub Copilot is not logged in (no token found)",
    hint: hint([
      { kind: "login", provider: "copilot" },
      advice("A personal access token with read:user also works."),
      { kind: "set-key", provider: "copilot", env: ["COPILOT_API_TOKEN"] },
    ]),
  },
});

/** `listProviders()` on a machine where nothing is set up: every provider of the registry. */
export function listing(): ProviderListing[] {
  return DESCRIPTORS.map((d) => ({
    id: d.id,
    account: null,
    name: d.name,
    auth: d.auth,
    credentialsFound: false,
    enabled: false,
    supported: true,
    unofficial: d.unofficial === true,
    dashboardUrl: d.dashboardUrl,
    status: d.status,
    credentialEnv: d.credentialEnv,
  }));
}
