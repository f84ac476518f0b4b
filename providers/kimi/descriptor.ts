import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "kimi",
  name: "Kimi",
  auth: [
    "Kimi Code API key",
    "Kimi Code CLI sign-in",
    "Manual token",
    "Environment variable",
    "Browser cookie kimi-auth (Arc, Chrome, Safari, Edge, Brave, Chromium)",
  ],
  dashboardUrl: "https://www.kimi.com/code/console",
  credentialEnv: ["KIMI_CODE_API_KEY", "KIMI_AUTH_TOKEN"],
  settings: [
    {
      field: "apiKey",
      title: "Kimi Code API Key",
      description: "From the Kimi Code console. Without it, the Kimi Code CLI sign-in or the kimi-auth cookie is used.",
    },
    {
      field: "cookieHeader",
      title: "Kimi Cookie (kimi-auth)",
      description:
        "The kimi-auth cookie of kimi.com, or a Cookie header that contains it. Empty: read from a browser signed in to kimi.com.",
      placeholder: "kimi-auth=eyJ…",
    },
  ],
});
