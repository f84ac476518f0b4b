import { advice, apiKey, firstFound, fromEnv, mapped, type CredentialSource, type Remedy } from "../kit/index.js";

export const ENV = ["COPILOT_API_TOKEN"];

/** A token, and whether it is the stored one (config `apiKey`), so a rejection can say which to replace. */
export interface CopilotCredential {
  token: string;
  stored: boolean;
}

export const signIn: Remedy = { kind: "login", provider: "copilot" };
export const personalToken: Remedy[] = [
  advice("A personal access token with read:user also works."),
  { kind: "set-key", provider: "copilot", env: ENV },
];

// the login stores its token as config `apiKey`, which wins over the environment
export const copilotToken: CredentialSource<CopilotCredential> = firstFound<CopilotCredential>([
  mapped(apiKey([]), (token) => ({ token, stored: true })),
  mapped({ resolve: async (context) => fromEnv(context, ENV) }, (token) => ({ token, stored: false })),
]);
