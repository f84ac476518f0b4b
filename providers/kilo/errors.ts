import { advice, QuotabarError, type Remedy } from "../kit/index.js";

export const KILO_ENV = ["KILO_API_KEY"];

const SET_KEY: Remedy = { kind: "set-key", provider: "kilo", env: KILO_ENV };
const CLI_LOGIN: Remedy = { kind: "install", tool: "the Kilo CLI", command: "kilo login" };

/** A rejected key or CLI token (HTTP 401/403, or a tRPC UNAUTHORIZED/FORBIDDEN inside a 200). */
export const authFailed = (code: "unauthorized" | "forbidden", status?: number) =>
  new QuotabarError(code, "Kilo authentication failed (401/403). Refresh KILO_API_KEY or run `kilo login`.", {
    ...(status !== undefined ? { status } : {}),
    remedies: [SET_KEY, CLI_LOGIN],
  });

export const endpointNotFound = (status?: number) =>
  new QuotabarError("upstream", "Kilo API endpoint not found (404). Verify the tRPC batch path and procedure names.", {
    ...(status !== undefined ? { status } : {}),
    remedies: [advice("Kilo may have renamed its API; please report it.")],
  });

export const kiloParseError = (detail: string) =>
  new QuotabarError("parse", `Failed to parse Kilo API response: ${detail}`, { remedies: [advice("Response format may have changed.")] });

/** No CLI auth file. In auto mode either credential will do; in cli mode a key helps only with source api. */
export const sessionNotFound = (path: string, mode: "auto" | "cli") =>
  new QuotabarError(
    "not_configured",
    `Kilo CLI session not found at ${path}. Run \`kilo login\` to create ~/.local/share/kilo/auth.json.`,
    {
      remedies:
        mode === "auto"
          ? [SET_KEY, CLI_LOGIN]
          : [CLI_LOGIN, SET_KEY, { kind: "set-config", provider: "kilo", field: "source", example: "api" }],
    },
  );
