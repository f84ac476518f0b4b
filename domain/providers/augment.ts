import type { ProviderDescriptor } from "./descriptor.js";

export const augmentDescriptor: ProviderDescriptor = {
  id: "augment",
  name: "Augment",
  specLetter: "G",
  auth: ["auggie CLI", "Browser cookies"],
  dashboardUrl: "https://app.augmentcode.com/account/subscription",
  status: { kind: "none" },
  strategies: ["cli", "web"],
  enabledByDefault: true,
  credentialEnv: [],
};
