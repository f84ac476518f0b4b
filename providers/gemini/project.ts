import type { FetchContext } from "../kit/index.js";

/** A project id (an all-digit project number is none: the CLI refuses one, and so does quotabar). */
export const PROJECT_ID = /^(?!\d+$)[\w.:-]{1,128}$/;

/**
 * The quota project loadCodeAssist named in an earlier run with this credential, so a later run can
 * ask for the quota beside the plan instead of after it. An id, not a secret.
 */
const KEPT_PROJECT = "project";
/** loadCodeAssist still names the project on every run (a changed one is followed): the lifetime only bounds a stale record. */
const PROJECT_TTL_MS = 30 * 24 * 60 * 60 * 1000;

type Kept = FetchContext["kept"];

/** The kept project, when the value read back is a project id. */
export async function keptProject(kept: Kept): Promise<string | null> {
  const value = await kept.read(KEPT_PROJECT);
  return typeof value === "string" && PROJECT_ID.test(value) ? value : null;
}

export const keepProject = (kept: Kept, project: string): Promise<void> => kept.write(KEPT_PROJECT, project, PROJECT_TTL_MS);
