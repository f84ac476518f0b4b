import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "kimi",
  name: "Kimi",
  auth: ["Browser cookie kimi-auth", "Manual token", "Environment variable"],
  dashboardUrl: "https://www.kimi.com/code/console",
  credentialEnv: ["KIMI_AUTH_TOKEN"],
  settings: [
    {
      field: "cookieHeader",
      title: "Kimi Cookie (kimi-auth)",
      description: "The kimi-auth cookie of kimi.com, or a Cookie header that contains it.",
      placeholder: "kimi-auth=eyJ…",
    },
  ],
});
