import { machineWide, advice, hostOs, QuotabarError, type CredentialSource } from "../kit/index.js";
import { ideBases, newestQuotaFile, QUOTA_FILE } from "./ides.js";

/** The quota file of the IDE that used AI Assistant last: found means enabled. */
export const quotaFile: CredentialSource<string> = machineWide({
  async resolve({ env }) {
    return newestQuotaFile(ideBases(env, hostOs().platform)).catch((error: unknown) => {
      throw new QuotabarError("not_configured", `Could not look for JetBrains IDEs: ${reasonOf(error)}`, {
        remedies: [advice("Check that your user can read the IDE configuration folders.")],
        cause: error,
      });
    });
  },
});

/** The spec's message: the file exists only once AI Assistant has been used. */
export function noIdeDetected(): QuotabarError {
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

export function unsupported(): QuotabarError {
  return new QuotabarError("unsupported_platform", "JetBrains AI is read from the IDE's files on macOS and Linux only.");
}

/** `EACCES` rather than the message, which names the path. */
export const reasonOf = (error: unknown): string =>
  (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
