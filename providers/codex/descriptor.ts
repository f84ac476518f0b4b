import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "codex",
  name: "Codex",
  auth: [
    "The Codex CLI's ChatGPT sign-in ($CODEX_HOME/auth.json or ~/.codex/auth.json), read only",
    "codex app-server (the Codex CLI, signed in)",
    "Codex's own session logs (~/.codex/sessions), no network",
  ],
  dashboardUrl: "https://chatgpt.com/codex/settings/usage",
  // status.openai.com covers all of OpenAI: only its Codex group speaks for Codex
  status: { kind: "polled", feed: "statuspage", url: "https://status.openai.com", components: ["Codex"] },
});
