import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "antigravity",
  name: "Antigravity",
  auth: ["None: the running language server"],
  dashboardUrl: "https://antigravity.google",
  status: {
    kind: "polled",
    feed: "google-workspace",
    url: "https://www.google.com/appsstatus/dashboard/products/npdyhgECDJ6tB66MxXyo/history",
    productId: "npdyhgECDJ6tB66MxXyo",
  },
});
