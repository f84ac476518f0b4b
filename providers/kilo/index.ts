import { apiKey, missingKey, type FetchStrategy, type ProviderCode } from "../kit/index.js";
import { kiloAuthFile, kiloCliSession } from "./cli-session.js";
import { KILO_ENV, sessionNotFound } from "./errors.js";
import { kiloSnapshot, type KiloReading } from "./policy.js";

/** Auto tries the API and falls back to the CLI session; api and cli use only that one. */
export type KiloSourceMode = "auto" | "api" | "cli";

/** The configured or requested mode; `web` and `oauth` mean auto (as the real client does), others none. */
export function kiloSourceMode(mode: string): KiloSourceMode | null {
  const value = mode.trim().toLowerCase();
  if (value === "" || value === "auto" || value === "web" || value === "oauth") return "auto";
  return value === "api" || value === "cli" ? value : null;
}

const isAuto = (sourceMode: string) => kiloSourceMode(sourceMode) === "auto";
const runsIn = (own: KiloSourceMode) => (sourceMode: string) => {
  const mode = kiloSourceMode(sourceMode);
  return mode === "auto" || mode === own;
};

/** The API key (config `apiKey`, else KILO_API_KEY). */
export const kiloApi: FetchStrategy<string, KiloReading> = {
  source: "api",
  credentials: apiKey(KILO_ENV),
  // the wire (requests, schemas) loads with the first fetch: listing providers never loads it
  fetch: async (token, context) => (await import("./wire.js")).readBatch(token, context),
  toSnapshot: kiloSnapshot,
  appliesTo: runsIn("api"),
  // In auto mode a rejected key falls back to the CLI session (a missing key already does).
  fallbackOn: (error, context) => isAuto(context.sourceMode) && (error.code === "unauthorized" || error.code === "forbidden"),
  missingCredential: (context) =>
    isAuto(context.sourceMode)
      ? sessionNotFound(kiloAuthFile(context.env), "auto")
      : missingKey("kilo", KILO_ENV, "Kilo API credentials missing. Set KILO_API_KEY."),
};

/** The Kilo CLI's access token, on the same API. */
export const kiloCli: FetchStrategy<string, KiloReading> = {
  source: "cli",
  credentials: kiloCliSession,
  fetch: async (token, context) => (await import("./wire.js")).readBatch(token, context),
  toSnapshot: kiloSnapshot,
  appliesTo: runsIn("cli"),
  missingCredential: (context) => sessionNotFound(kiloAuthFile(context.env), "cli"),
};

export const kilo: ProviderCode = {
  strategies: [kiloApi, kiloCli],
  simulator: async () => (await import("./simulator.js")).kiloUpstream,
};
