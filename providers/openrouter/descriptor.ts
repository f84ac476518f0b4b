import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "openrouter",
  name: "OpenRouter",
  auth: ["API key"],
  dashboardUrl: "https://openrouter.ai/settings/credits",
  status: { kind: "link", url: "https://status.openrouter.ai" },
  credentialEnv: ["OPENROUTER_API_KEY"],
  settings: [
    {
      field: "apiKey",
      title: "OpenRouter API Key",
      description: "From openrouter.ai/settings/keys.",
      placeholder: "sk-or-v1-…",
    },
  ],
});
