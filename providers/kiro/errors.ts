import { advice, QuotabarError, type ProviderHttp, type Remedy } from "../kit/index.js";
import { excerptOutsideFetch } from "../../domain/redact.js";

const INSTALL: Remedy = { kind: "install", tool: "Kiro CLI", url: "https://kiro.dev", command: "kiro-cli login" };

/** Where kiro-cli is looked for besides PATH (HOME-relative ones are resolved per call). */
export const INSTALL_DIRS = ["~/.local/bin", "/opt/homebrew/bin", "/usr/local/bin"];

export const notInstalled = () =>
  new QuotabarError("not_installed", "kiro-cli not found. Install it from https://kiro.dev", {
    remedies: [INSTALL, advice(`kiro-cli is looked for on PATH and in ${INSTALL_DIRS.join(", ")}.`)],
  });

export const notLoggedIn = () =>
  new QuotabarError("unauthorized", "Not logged in to Kiro. Run 'kiro-cli login' first.", {
    remedies: [
      advice(
        "Sign in with kiro-cli login in a terminal (kiro-cli login --use-device-flow when the browser cannot call back), then try again.",
      ),
    ],
  });

export const timedOut = () =>
  new QuotabarError("timeout", "Kiro CLI timed out.", {
    remedies: [advice("kiro-cli did not finish; it may be waiting on the network. Try again."), { kind: "raise-timeout" }],
  });

export const couldNotRetrieve = () =>
  new QuotabarError("upstream", "Kiro CLI could not retrieve usage information.", {
    remedies: [advice("Kiro's usage service did not answer kiro-cli."), { kind: "retry" }],
  });

/** A non-zero exit: the status and the first line the CLI wrote (redacted then cut by the fetch's `http.excerpt`), never its whole output. */
export function cliFailed(exitCode: number | null, text: string, excerpt: ProviderHttp["excerpt"] = excerptOutsideFetch): QuotabarError {
  const status = exitCode === null ? "Kiro CLI was stopped by a signal" : `Kiro CLI failed with status ${exitCode}`;
  const said = excerpt(text, { firstLine: true });
  return new QuotabarError("upstream", said === "" ? `${status}.` : `${status}: ${said}`, {
    remedies: [advice("Run kiro-cli chat --no-interactive /usage in a terminal to see the whole message.")],
  });
}

/** The CLI could not be started (it vanished, or is not executable). */
export function cannotStart(error: unknown): QuotabarError {
  if (error instanceof QuotabarError) return error; // the runner's own verdict (an answer over its cap)
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return notInstalled();
  return new QuotabarError("upstream", `Could not start kiro-cli: ${code ?? "unknown error"}`, {
    remedies: [INSTALL],
    cause: error,
  });
}
