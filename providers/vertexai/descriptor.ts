import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "vertexai",
  name: "Vertex AI",
  auth: ["gcloud application default credentials"],
  dashboardUrl: "https://console.cloud.google.com/vertex-ai",
  status: { kind: "link", url: "https://status.cloud.google.com" },
});
