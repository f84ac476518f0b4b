import { keptId } from "../kit/kept-id.js";

/** A project id (an all-digit project number is none: the CLI refuses one, and so does quotabar). */
export const PROJECT_ID = /^(?!\d+$)[\w.:-]{1,128}$/;

/**
 * The quota project loadCodeAssist named in an earlier run with this credential, so a later run can
 * ask for the quota beside the plan instead of after it (loadCodeAssist still names it on every run:
 * a changed one is followed).
 */
const KEPT_PROJECT = keptId("project", PROJECT_ID);

/** The kept project, when the value read back is a project id. */
export const keptProject = KEPT_PROJECT.read;
export const keepProject = KEPT_PROJECT.keep;
