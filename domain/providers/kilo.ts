import type { ProviderDescriptor } from "./descriptor.js";

export const kiloDescriptor: ProviderDescriptor = {
  id: "kilo",
  name: "Kilo Code",
  specLetter: "C",
  auth: ["API token (config or KILO_API_KEY)", "Kilo CLI session"],
  dashboardUrl: "https://app.kilo.ai/account/usage",
  status: { kind: "none" },
  strategies: ["api", "cli"],
  enabledByDefault: true,
  credentialEnv: ["KILO_API_KEY"],
};
