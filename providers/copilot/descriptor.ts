import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "copilot",
  name: "GitHub Copilot",
  auth: ["OAuth device flow (scope read:user)", "Personal access token with read:user"],
  dashboardUrl: "https://github.com/settings/copilot",
  // githubstatus.com covers all of GitHub: only its Copilot component speaks for Copilot
  status: { kind: "polled", feed: "statuspage", url: "https://www.githubstatus.com", components: ["Copilot"] },
  credentialEnv: ["COPILOT_API_TOKEN"],
  settings: [
    {
      field: "apiKey",
      title: "GitHub Copilot Token",
      description: "A token with the read:user scope. Easier: run Sign in to GitHub Copilot. Leave empty to use the signed-in token.",
      placeholder: "gho_… or github_pat_…",
    },
  ],
  signIn: { title: "Sign in to GitHub Copilot" },
});
