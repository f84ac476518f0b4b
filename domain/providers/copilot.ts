import type { ProviderDescriptor } from "./descriptor.js";

export const copilotDescriptor: ProviderDescriptor = {
  id: "copilot",
  name: "GitHub Copilot",
  specLetter: "Q",
  auth: ["OAuth device flow (scope read:user)", "Personal access token with read:user"],
  dashboardUrl: "https://github.com/settings/copilot",
  status: { kind: "polled", feed: "statuspage", url: "https://www.githubstatus.com" },
  strategies: ["oauth"],
  enabledByDefault: true,
  credentialEnv: ["COPILOT_API_TOKEN"],
};
