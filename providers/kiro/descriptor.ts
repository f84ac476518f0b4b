import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "kiro",
  name: "Kiro",
  auth: ["Kiro's own log (q-client.log), while its usage answer is fresh", "kiro-cli logged in with an AWS Builder ID"],
  dashboardUrl: "https://app.kiro.dev/account/usage",
  status: { kind: "link", url: "https://health.aws.amazon.com/health/status" },
});
