import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "kilo",
  name: "Kilo Code",
  auth: ["API key", "Kilo CLI session"],
  dashboardUrl: "https://app.kilo.ai/usage",
  credentialEnv: ["KILO_API_KEY"],
  settings: [
    {
      field: "apiKey",
      title: "Kilo Code API Key",
      description: "From app.kilo.ai. Without it, the Kilo CLI session is used when found.",
    },
  ],
});
