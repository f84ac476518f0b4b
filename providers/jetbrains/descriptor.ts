import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "jetbrains",
  name: "JetBrains AI",
  auth: ["None: the IDE's local quota file"],
  dashboardUrl: "https://account.jetbrains.com",
});
