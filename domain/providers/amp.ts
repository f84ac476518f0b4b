import type { ProviderDescriptor } from "./descriptor.js";

export const ampDescriptor: ProviderDescriptor = {
  id: "amp",
  name: "Amp",
  specLetter: "H",
  auth: ["Browser cookies (auto)", "Manual cookie header"],
  dashboardUrl: "https://ampcode.com/settings",
  status: { kind: "none" },
  strategies: ["web"],
  enabledByDefault: true,
  credentialEnv: [],
};
