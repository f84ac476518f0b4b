import type { ProviderDescriptor } from "./descriptor.js";

export const jetbrainsDescriptor: ProviderDescriptor = {
  id: "jetbrains",
  name: "JetBrains AI",
  specLetter: "I",
  auth: ["None: the IDE's local quota file"],
  dashboardUrl: "https://account.jetbrains.com",
  status: { kind: "none" },
  strategies: ["local"],
  enabledByDefault: true,
  credentialEnv: [],
};
