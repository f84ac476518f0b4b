import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "vertexai",
  name: "Vertex AI",
  auth: ["gcloud application default credentials (gcloud auth application-default login)", "Claude Code logs for the cost (local files)"],
  dashboardUrl: "https://console.cloud.google.com/vertex-ai",
  status: { kind: "link", url: "https://status.cloud.google.com" },
});
