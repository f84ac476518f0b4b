import type { ProviderDescriptor } from "./descriptor.js";

export const opencodeDescriptor: ProviderDescriptor = {
  id: "opencode",
  name: "OpenCode",
  specLetter: "M",
  auth: ["Browser cookies (Chrome)", "Manual cookie header"],
  dashboardUrl: "https://opencode.ai",
  status: { kind: "none" },
  strategies: ["web"],
  enabledByDefault: true,
  credentialEnv: [],
};
