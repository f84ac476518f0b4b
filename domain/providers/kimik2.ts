import type { ProviderDescriptor } from "./descriptor.js";

export const kimik2Descriptor: ProviderDescriptor = {
  id: "kimik2",
  name: "Kimi K2 (unofficial)",
  specLetter: "D",
  auth: ["API key"],
  dashboardUrl: "https://kimi-k2.ai/my-credits",
  status: { kind: "none" },
  strategies: ["api"],
  enabledByDefault: false,
  unofficial: true,
  credentialEnv: ["KIMI_K2_API_KEY", "KIMI_API_KEY", "KIMI_KEY"],
};
