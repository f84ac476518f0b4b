import type { ProviderDescriptor } from "./descriptor.js";

export const factoryDescriptor: ProviderDescriptor = {
  id: "factory",
  name: "Factory (Droid)",
  specLetter: "L",
  auth: ["Stored session, tokens and browser cookies (nine-step chain)"],
  dashboardUrl: "https://app.factory.ai/settings/billing",
  status: { kind: "polled", feed: "statuspage", url: "https://status.factory.ai" },
  strategies: ["web"],
  enabledByDefault: true,
  credentialEnv: [],
};
