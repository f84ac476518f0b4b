import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "minimax",
  name: "MiniMax",
  auth: ["API token", "Cached cookie header", "Browser cookies", "Chromium local storage token", "Manual cookie header"],
  dashboardUrl: "https://platform.minimax.io/user-center/payment/coding-plan",
  credentialEnv: ["MINIMAX_CODING_API_KEY", "MINIMAX_API_KEY"],
  settings: [
    {
      field: "apiKey",
      title: "MiniMax API Key",
      description: "Your MiniMax coding plan API token.",
    },
    {
      field: "region",
      title: "MiniMax Region",
      description: "Global (minimax.io) or China (minimaxi.com). Left at Global, a region set in the shared config file is kept.",
      options: [
        {
          title: "Global",
          value: "global",
        },
        {
          title: "China",
          value: "cn",
        },
      ],
      default: "global",
    },
    {
      field: "cookieHeader",
      title: "MiniMax Cookie Header",
      description:
        "Empty: the cookies (and the web app's access token) of a browser signed in to platform.minimax.io are read. Or paste a Cookie header, better a \"Copy as cURL\" of the remains request (from the browser's developer tools).",
      placeholder: "session=…",
    },
  ],
});
