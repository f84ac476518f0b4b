import { advice } from "../../../domain/remedy.js";
import { QuotabarError } from "../../../domain/errors.js";

/** Safari's container is privacy-protected: without Full Disk Access a read fails with EPERM, which the user can fix. */
export function unreadableSafariData(error: unknown, path: string): unknown {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code !== "EPERM" && code !== "EACCES") return error;
  return new QuotabarError("forbidden", `Safari's data at ${path} exists but cannot be read without Full Disk Access`, {
    cause: error,
    remedies: [
      advice(
        "Give the app that runs quotabar Full Disk Access in System Settings > Privacy & Security > Full Disk Access, then try again.",
      ),
    ],
  });
}
