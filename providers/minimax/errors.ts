import { advice, QuotabarError, type Remedy, type StatusRules } from "../kit/index.js";

const MINIMAX_INVALID = "MiniMax credentials are invalid or expired.";
/** The coding-plan variable wins over the general one. */
export const KEY_ENV = ["MINIMAX_CODING_API_KEY", "MINIMAX_API_KEY"];
const COOKIE_ENV = ["MINIMAX_COOKIE", "MINIMAX_COOKIE_HEADER"];

/** Only a Coding Plan key reads the plan, so the remedy says which kind to store. */
export const SET_KEY: Remedy[] = [advice("Use a Coding Plan API key (sk-cp-...)."), { kind: "set-key", provider: "minimax", env: KEY_ENV }];
export const PASTE_COOKIE: Remedy = {
  kind: "set-cookie",
  provider: "minimax",
  env: COOKIE_ENV,
  from: "platform.minimax.io (or platform.minimaxi.com)",
};
export const FRESH_COOKIE: Remedy[] = [{ kind: "browser-sign-in", url: "https://platform.minimax.io" }, PASTE_COOKIE];

/** The error of a refused credential, whatever said so (an HTTP status, a body status, a sign-in page). */
export function refused(remedies: readonly Remedy[], status?: number): QuotabarError {
  const code = status === 403 ? "forbidden" : "unauthorized";
  return new QuotabarError(code, MINIMAX_INVALID, { remedies, ...(status === undefined ? {} : { status }) });
}

/** 401 and 403 say the credential was refused, in MiniMax's words; the table's other rows fit as they are. */
export const refusedOn = (remedies: readonly Remedy[]): StatusRules => ({
  401: (response) => refused(remedies, response.status),
  403: (response) => refused(remedies, response.status),
});

export const isRefusal = (error: QuotabarError) => error.code === "unauthorized" || error.code === "forbidden";
