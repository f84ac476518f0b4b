import type { ProviderDescriptor } from "./descriptor.js";

export const kiroDescriptor: ProviderDescriptor = {
  id: "kiro",
  name: "Kiro",
  specLetter: "E",
  auth: ["kiro-cli logged in with an AWS Builder ID"],
  dashboardUrl: "https://app.kiro.dev",
  status: { kind: "link", url: "https://health.aws.amazon.com/health/status" },
  strategies: ["cli"],
  enabledByDefault: true,
  credentialEnv: [],
};
