import { notConfigured, type FetchContext, type Remedy } from "../kit/index.js";

/**
 * The editor identity GitHub expects on `copilot_internal` calls. GitHub retires old values now and
 * then; each one can be overridden in the copilot config entry (same field name).
 */
export const COPILOT_HEADER_DEFAULTS = {
  editorVersion: "vscode/1.96.2",
  editorPluginVersion: "copilot-chat/0.26.7",
  /** Default: derived from editorPluginVersion (`copilot-chat/0.26.7` -> `GitHubCopilotChat/0.26.7`). */
  userAgent: "GitHubCopilotChat/0.26.7",
  apiVersion: "2025-04-01",
} as const;

export type CopilotHeaderValues = { -readonly [K in keyof typeof COPILOT_HEADER_DEFAULTS]: string };
export const HEADER_FIELDS = ["editorVersion", "editorPluginVersion", "userAgent", "apiVersion"] as const;

/** Where to set a header value; `example` shows the shape it takes. */
export const setHeaderField = (field: keyof CopilotHeaderValues, example?: string): Remedy => ({
  kind: "set-config",
  provider: "copilot",
  field,
  ...(example ? { example } : {}),
});

/** The header values to send: config overrides over the defaults, each checked so a typo fails clearly. */
export function copilotHeaderValues(entry: FetchContext["entry"]): CopilotHeaderValues {
  const values: CopilotHeaderValues = { ...COPILOT_HEADER_DEFAULTS };
  for (const field of HEADER_FIELDS) {
    const raw = entry[field];
    if (raw === undefined || raw === null) continue;
    const value = typeof raw === "string" ? raw.trim() : "";
    // printable ASCII words only, so an override can never smuggle in a line break (another header)
    if (!/^[\x21-\x7e]+( [\x21-\x7e]+)*$/.test(value)) {
      throw notConfigured(`providers[copilot].${field} is not a valid header value`, setHeaderField(field, COPILOT_HEADER_DEFAULTS[field]));
    }
    values[field] = value;
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(values.apiVersion)) {
    throw notConfigured(
      "providers[copilot].apiVersion must be a date like 2025-04-01",
      setHeaderField("apiVersion", COPILOT_HEADER_DEFAULTS.apiVersion),
    );
  }
  if (entry.userAgent === undefined && entry.editorPluginVersion !== undefined) {
    const version = values.editorPluginVersion.split("/")[1];
    if (version) values.userAgent = `GitHubCopilotChat/${version}`;
  }
  return values;
}

export function copilotHeaders(token: string, values: CopilotHeaderValues): Record<string, string> {
  return {
    Authorization: `token ${token}`,
    Accept: "application/json",
    "Editor-Version": values.editorVersion,
    "Editor-Plugin-Version": values.editorPluginVersion,
    "User-Agent": values.userAgent,
    "X-GitHub-Api-Version": values.apiVersion,
  };
}
