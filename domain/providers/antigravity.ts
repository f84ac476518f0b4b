import type { ProviderDescriptor } from "./descriptor.js";

export const antigravityDescriptor: ProviderDescriptor = {
  id: "antigravity",
  name: "Antigravity",
  specLetter: "K",
  auth: ["None: the running language server"],
  dashboardUrl: "https://antigravity.google",
  status: {
    kind: "polled",
    feed: "google-workspace",
    url: "https://www.google.com/appsstatus/dashboard/products/npdyhgECDJ6tB66MxXyo/history",
    productId: "npdyhgECDJ6tB66MxXyo",
  },
  strategies: ["local"],
  enabledByDefault: true,
  credentialEnv: [],
};
