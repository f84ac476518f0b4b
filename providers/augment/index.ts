import { machineWide, withFreshCookieRetry, type FetchStrategy, type ProviderCode } from "../kit/index.js";
import { augmentCookie } from "./cookies.js";
import { findAuggie } from "./credentials.js";
import { noSession } from "./errors.js";
import { augmentKeepalive } from "./keepalive.js";
import { augmentCliSnapshot, augmentWebSnapshot, type AugmentCliReading, type AugmentWebReading } from "./policy.js";

/**
 * `auggie account status`, when auggie is found: `AUGGIE_CLI_PATH`, then PATH, then what the
 * user's login shell resolves (`command -v`, aliases included), then the system directories. The
 * credential is the binary's path: found means set up, and finding it runs at most the shell probe.
 */
export const augmentCli: FetchStrategy<string, AugmentCliReading> = {
  source: "cli",
  credentials: machineWide({ resolve: findAuggie }),
  missingCredential: noSession,
  toSnapshot: augmentCliSnapshot,
  // every failure but a changed output lets the web try (the reference's v0.18 rule)
  fallbackOn: (error) => error.code !== "parse",
  // the wire (the run, output parsing) loads with the first fetch: listing providers never loads it
  fetch: async (binary, context) => (await import("./wire-cli.js")).runAuggie(binary, context),
};

/**
 * `GET /api/credits` (required) and `GET /api/subscription` (the plan, the account, the period's
 * end; any failure of it is dropped) with the session's cookies. Only an expired session (401) makes
 * a cached header be forgotten and the browsers read again: a 403 does not, as in the reference.
 */
const web: FetchStrategy<string, AugmentWebReading> = {
  source: "web",
  credentials: augmentCookie,
  missingCredential: noSession,
  toSnapshot: augmentWebSnapshot,
  fetch: async (cookie, context) => (await import("./wire-web.js")).readAugmentWeb(cookie, context),
};

export const augmentWeb = withFreshCookieRetry(web, (error) => error.code === "expired");

/** `auggie account status` when auggie is installed, else (and after any CLI failure but a parse error) the web app with cookies. */
export const augment: ProviderCode = {
  strategies: [augmentCli, ...augmentWeb],
  simulator: async () => (await import("./simulator.js")).augmentUpstream,
  keepalive: augmentKeepalive,
};
