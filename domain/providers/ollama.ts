import type { ProviderDescriptor } from "./descriptor.js";

export const ollamaDescriptor: ProviderDescriptor = {
  id: "ollama",
  name: "Ollama",
  specLetter: "O",
  auth: ["Browser cookies (Chrome)", "Manual cookie header"],
  dashboardUrl: "https://ollama.com/settings",
  status: { kind: "none" },
  strategies: ["web"],
  enabledByDefault: true,
  credentialEnv: [],
};
