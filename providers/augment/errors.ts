import { advice, browsersOf, hostOs, QuotabarError, type CredentialContext, type Remedy } from "../kit/index.js";
import { APP_ORIGIN, BROWSERS, COOKIE_ENV } from "./cookies.js";

const SIGN_IN: Remedy = { kind: "browser-sign-in", url: APP_ORIGIN };
const PASTE_COOKIE: Remedy = { kind: "set-cookie", provider: "augment", env: COOKIE_ENV, from: "app.augmentcode.com" };
const AUGGIE: Remedy = { kind: "install", tool: "the Auggie CLI", command: "auggie login" };

const NAMES: Record<string, string> = {
  safari: "Safari",
  chrome: "Chrome",
  "chrome-beta": "Chrome Beta",
  "chrome-canary": "Chrome Canary",
  edge: "Edge",
  "edge-beta": "Edge Beta",
  brave: "Brave",
  arc: "Arc",
  dia: "Dia",
  "arc-beta": "Arc Beta",
  firefox: "Firefox",
  chromium: "Chromium",
};
/** Browsers that exist on macOS only: not named to a Linux user. */
const MAC_ONLY = new Set(["safari", "arc", "arc-beta", "dia"]);

/** Neither auggie nor a session cookie anywhere: the reference's words, naming the browsers looked in. */
export function noSession(context: CredentialContext): QuotabarError {
  const mac = hostOs().platform === "darwin";
  const names = (browsersOf(context.entry) ?? BROWSERS).filter((id) => mac || !MAC_ONLY.has(id)).map((id) => NAMES[id] ?? id);
  return new QuotabarError("not_configured", `No Augment session found. Please log in to app.augmentcode.com in ${names.join(", ")}.`, {
    remedies: [SIGN_IN, AUGGIE, PASTE_COOKIE],
  });
}

/** 401 on the credits: the session is gone (and a cached header is forgotten). */
export const sessionExpired = (status?: number) =>
  new QuotabarError("expired", "Augment session expired. Please log in again.", {
    remedies: [SIGN_IN, PASTE_COOKIE],
    ...(status === undefined ? {} : { status }),
  });

/** Any other refusal of the credits, with what the body said (its first line, redacted then cut: `http.excerpt`). */
export function apiError(status: number, said: string): QuotabarError {
  const message = `Augment API error: HTTP ${status}${said === "" ? "" : `: ${said}`}`;
  if (status === 403) return new QuotabarError("forbidden", message, { status, remedies: [SIGN_IN, PASTE_COOKIE] });
  if (status === 429) return new QuotabarError("rate_limited", message, { status, remedies: [{ kind: "retry", afterSeconds: 60 }] });
  return new QuotabarError("upstream", message, { status, remedies: [advice("Augment's web app is failing; try again later.")] });
}

export const creditsParse = (reason: string) =>
  new QuotabarError("parse", `Could not parse Augment usage: Credits response: ${reason}`, {
    remedies: [advice("Augment may have changed its web API, or a proxy answered instead.")],
  });

/** `auggie account status` said to sign in. */
export const notAuthenticated = () =>
  new QuotabarError("unauthorized", "Not authenticated. Run 'auggie login' to authenticate.", {
    remedies: [advice("Sign in with auggie login in a terminal, or sign in to Augment in a browser."), SIGN_IN],
  });

export const noOutput = () => new QuotabarError("upstream", "Auggie CLI returned no output", { remedies: [{ kind: "retry" }] });

export const cliTimedOut = () =>
  new QuotabarError("timeout", "Auggie CLI timed out.", {
    remedies: [advice("auggie account status did not finish; it may be waiting on the network. Try again."), { kind: "raise-timeout" }],
  });

/** The one CLI failure that does not fall back to the web: its output format changed. */
export const cliParse = (detail = "Could not extract credits from output") =>
  new QuotabarError("parse", `Failed to parse auggie output: ${detail}`, {
    remedies: [advice("The Auggie CLI may have changed its output; please report it.")],
  });

/** A non-zero exit: its status and the first line it wrote (redacted then cut: `http.excerpt`), never the whole output. */
export function cliFailed(exitCode: number | null, said: string): QuotabarError {
  const status = exitCode === null ? "Auggie CLI was stopped by a signal" : `Auggie CLI failed with status ${exitCode}`;
  return new QuotabarError("upstream", said === "" ? `${status}.` : `${status}: ${said}`, {
    remedies: [advice("Run auggie account status in a terminal to see the whole message.")],
  });
}

/** The CLI could not be started (it vanished, or is not executable). */
export function cannotStart(error: unknown): QuotabarError {
  if (error instanceof QuotabarError) return error; // the runner's own verdict (an answer over its cap)
  const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
  return new QuotabarError("upstream", `Could not start auggie: ${code}`, { remedies: [AUGGIE], cause: error });
}
