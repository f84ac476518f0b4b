import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "gemini",
  name: "Gemini CLI",
  auth: ["Gemini CLI sign-in (Login with Google: ~/.gemini/oauth_creds.json, read only)"],
  dashboardUrl: "https://codeassist.google.com",
  // the Gemini product of Google's incidents feed, as for Antigravity
  status: {
    kind: "polled",
    feed: "google-workspace",
    url: "https://www.google.com/appsstatus/dashboard/products/npdyhgECDJ6tB66MxXyo/history",
    productId: "npdyhgECDJ6tB66MxXyo",
  },
});
