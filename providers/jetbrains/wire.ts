import { advice, hostOs, QuotabarError, readTextIfPresent, type FetchStrategy } from "../kit/index.js";
import { ideBases, ideLabel, ideOf, newestQuotaFile, QUOTA_FILE } from "./ides.js";
import { jetbrainsSnapshot, type JetBrainsReading } from "./policy.js";

/**
 * The quota file of the IDE that used AI Assistant last. The credential is that file's path: found
 * means enabled. The IDE is named from the path, never carried beside it, because every string of
 * a credential is redacted from error messages.
 */
export const jetbrainsLocal: FetchStrategy<string, JetBrainsReading> = {
  source: "local",
  credentials: {
    async resolve({ env }) {
      return newestQuotaFile(ideBases(env, hostOs().platform)).catch((error: unknown) => {
        throw new QuotabarError("not_configured", `Could not look for JetBrains IDEs: ${reasonOf(error)}`, {
          remedies: [advice("Check that your user can read the IDE configuration folders.")],
          cause: error,
        });
      });
    },
  },
  missingCredential: () => (hostOs().platform === "win32" ? unsupported() : noIdeDetected()),
  toSnapshot: jetbrainsSnapshot,
  async fetch(file) {
    // the XML parser loads only when a quota file is read
    const { cannotParse, quotaReading } = await import("./quota-file.js");
    const folder = file.split(/[\\/]/).at(-3) ?? "";
    const ide = ideLabel(ideOf(folder) ?? { product: folder, version: "" });
    const text = await readTextIfPresent(file).catch((error: unknown) => {
      throw cannotParse(ide, `Failed to read file: ${reasonOf(error)}`).withRemedies(
        advice(`Check that your user can read the quota file of ${ide}.`),
      );
    });
    // removed between finding it and reading it
    if (text === null) throw noIdeDetected();
    return quotaReading(text, ide);
  },
};

/** The spec's message: the file exists only once AI Assistant has been used. */
function noIdeDetected(): QuotabarError {
  return new QuotabarError(
    "not_installed",
    "No JetBrains IDE with AI Assistant detected. Install a JetBrains IDE and enable AI Assistant.",
    {
      remedies: [
        { kind: "install", tool: "a JetBrains IDE with the AI Assistant plugin", url: "https://www.jetbrains.com/ai/" },
        advice(`AI Assistant writes ${QUOTA_FILE} only after it has been used once; use it in the IDE, then try again.`),
      ],
    },
  );
}

function unsupported(): QuotabarError {
  return new QuotabarError("unsupported_platform", "JetBrains AI is read from the IDE's files on macOS and Linux only.");
}

/** `EACCES` rather than the message, which names the path. */
const reasonOf = (error: unknown): string =>
  (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
