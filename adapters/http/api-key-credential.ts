import { notConfigured, type QuotabarError } from "../../domain/errors.js";
import type { CredentialSource } from "../../ports/credential-source.js";
import type { FetchContext } from "../../ports/fetch-context.js";

/** Trim, drop one pair of wrapping quotes, trim again; empty means absent (as CodexBar does). */
export function cleanSecret(value: unknown): string | null {
  if (typeof value !== "string") return null;
  let text = value.trim();
  if (text.length >= 2 && (text[0] === '"' || text[0] === "'") && text.at(-1) === text[0]) text = text.slice(1, -1).trim();
  return text === "" ? null : text;
}

/** Config `apiKey` first, then the environment variables in order (contract section 4). */
export function apiKeyCredential(envNames: readonly string[]): CredentialSource<string> {
  return {
    async resolve(context: FetchContext) {
      return cleanSecret(context.entry.apiKey) ?? envNames.map((name) => cleanSecret(context.env[name])).find((v) => v !== null) ?? null;
    },
  };
}

export function missingApiKey(name: string, id: string, envName: string, context: FetchContext, message?: string): QuotabarError {
  return notConfigured(
    message ?? `${name} API key not found`,
    `Set ${envName}, or run \`quotabar config set-key ${id} --stdin\` to store it as providers[${id}].apiKey in ${context.configPath}.`,
  );
}
