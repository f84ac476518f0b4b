import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "kimik2",
  name: "Kimi K2 (unofficial)",
  auth: ["API key"],
  dashboardUrl: "https://kimi-k2.ai/my-credits",
  enabledByDefault: false,
  unofficial: true,
  credentialEnv: ["KIMI_K2_API_KEY", "KIMI_API_KEY", "KIMI_KEY"],
  settings: [
    {
      field: "apiKey",
      title: "Kimi K2 API Key (Unofficial)",
      description: "kimi-k2.ai is an unofficial relay; only used when you add a key.",
    },
  ],
});
