import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "opencode",
  name: "OpenCode",
  auth: [
    "Browser cookies (Chrome by default), cached in the OS secret store",
    "Manual cookie header",
    "Optional workspace (config workspaceID)",
  ],
  dashboardUrl: "https://opencode.ai",
  credentialEnv: ["OPENCODE_COOKIE"],
  settings: [
    {
      field: "cookieHeader",
      title: "OpenCode Cookie Header",
      description:
        "Empty: Chrome's cookies for opencode.ai are read (signed in there). Or paste the Cookie header of a signed-in opencode.ai (from the browser's developer tools); only its auth cookie is sent.",
      placeholder: "auth=…",
    },
  ],
});
