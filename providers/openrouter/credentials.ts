import { apiKey, fromEnv, type CredentialSource } from "../kit/index.js";

export const ENV = ["OPENROUTER_API_KEY"];
const MANAGEMENT_ENV = ["OPENROUTER_MANAGEMENT_API_KEY"];

/** The API key, and the optional management key that unlocks the spend history (both redacted as secrets). */
export interface OpenrouterCredential {
  apiKey: string;
  managementKey: string | null;
}

const inferenceKey = apiKey(ENV);

export const openrouterKeys: CredentialSource<OpenrouterCredential> = {
  async resolve(context) {
    const key = await inferenceKey.resolve(context);
    return key === null ? null : { apiKey: key, managementKey: fromEnv(context, MANAGEMENT_ENV) };
  },
};
