import type { ProviderDescriptor } from "./descriptor.js";

export const kimiDescriptor: ProviderDescriptor = {
  id: "kimi",
  name: "Kimi",
  specLetter: "B",
  auth: ["Browser cookie kimi-auth", "Manual token", "Environment variable"],
  dashboardUrl: "https://www.kimi.com/code/console",
  status: { kind: "none" },
  strategies: ["web"],
  enabledByDefault: true,
  credentialEnv: ["KIMI_AUTH_TOKEN"],
};
