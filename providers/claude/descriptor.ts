import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "claude",
  name: "Claude",
  auth: [
    "Claude Code's sign-in (~/.claude/.credentials.json, $CLAUDE_CONFIG_DIR, the macOS Keychain), read only",
    "Browser cookies of claude.ai (sessionKey)",
    "Manual cookie header",
    "claude CLI (/usage)",
  ],
  dashboardUrl: "https://claude.ai/settings/usage",
  status: { kind: "polled", feed: "statuspage", url: "https://status.claude.com" },
  credentialEnv: ["CLAUDE_COOKIE"],
  settings: [
    {
      field: "cookieHeader",
      title: "Claude Cookie Header",
      description:
        "Cookie header of a signed-in claude.ai (its sessionKey). Optional: Claude Code's own sign-in, then the browsers' cookies, are used without it.",
      placeholder: "sessionKey=sk-ant-sid01-…",
    },
  ],
});
