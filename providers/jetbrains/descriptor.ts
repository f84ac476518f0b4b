import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "jetbrains",
  name: "JetBrains AI",
  auth: ["None: AI Assistant's quota file in the IDE's config folder (found automatically)"],
  dashboardUrl: "https://account.jetbrains.com",
});
