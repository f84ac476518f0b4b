import type { ProviderDescriptor } from "./descriptor.js";

export const vertexaiDescriptor: ProviderDescriptor = {
  id: "vertexai",
  name: "Vertex AI",
  specLetter: "F",
  auth: ["gcloud application default credentials"],
  dashboardUrl: "https://console.cloud.google.com/vertex-ai",
  status: { kind: "link", url: "https://status.cloud.google.com" },
  strategies: ["oauth"],
  enabledByDefault: true,
  credentialEnv: [],
};
