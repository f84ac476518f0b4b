import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "warp",
  name: "Warp",
  auth: ["API key starting with wk-"],
  dashboardUrl: "https://app.warp.dev/settings/account",
  credentialEnv: ["WARP_API_KEY", "WARP_TOKEN"],
  settings: [
    {
      field: "apiKey",
      title: "Warp API Key",
      description: "From Warp settings; keys start with wk-.",
      placeholder: "wk-…",
    },
  ],
});
