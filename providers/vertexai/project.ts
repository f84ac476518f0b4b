import { advice, cleanSecret, fromEnv, joinPath, notConfigured, readTextIfPresent, type CredentialContext } from "../kit/index.js";
import { gcloudDir } from "./adc.js";

/** The project whose Vertex AI quotas are read: the variables first (as gcloud does), then gcloud's active configuration. */

const PROJECT_ENV = ["GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT", "CLOUDSDK_CORE_PROJECT"];

/** Project ids (`acme-ml-prod`, domain-scoped `example.com:acme`): anything else never reaches a URL. */
const PROJECT_ID = /^[\w.:-]{1,128}$/;

export async function projectOf(context: CredentialContext): Promise<string> {
  const project = fromEnv(context, PROJECT_ENV) ?? (await configuredProject(gcloudDir(context.env)));
  if (project === null) {
    throw notConfigured(
      "No Google Cloud project configured. Run `gcloud config set project PROJECT_ID`.",
      advice("Choose the project to watch with `gcloud config set project PROJECT_ID`."),
    );
  }
  if (!PROJECT_ID.test(project)) {
    throw notConfigured("The Google Cloud project id is not valid.", advice("Set it again with `gcloud config set project PROJECT_ID`."));
  }
  return project;
}

/** `[core] project` of the active configuration (`active_config` names it; `default` when it does not). */
async function configuredProject(dir: string): Promise<string | null> {
  const active = cleanSecret(await readTextIfPresent(joinPath(dir, "active_config")).catch(() => null));
  const name = active !== null && /^[\w.-]+$/.test(active) ? active : "default";
  const text = await readTextIfPresent(joinPath(dir, "configurations", `config_${name}`)).catch(() => null);
  return text === null ? null : iniValue(text, "core", "project");
}

/** A value of gcloud's INI files: `key = value` (or `key: value`) under `[section]`; comments skipped. */
function iniValue(text: string, section: string, key: string): string | null {
  let current = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    if (line.startsWith("[") && line.endsWith("]")) {
      current = line.slice(1, -1).trim();
      continue;
    }
    const separator = line.search(/[=:]/);
    if (current === section && separator > 0 && line.slice(0, separator).trim() === key) return cleanSecret(line.slice(separator + 1));
  }
  return null;
}
