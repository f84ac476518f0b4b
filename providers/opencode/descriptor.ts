import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "opencode",
  name: "OpenCode",
  // browser cookies (Chrome) join as the first method once the browser reader lands
  auth: ["Manual cookie header", "Optional workspace (config workspaceID)"],
  dashboardUrl: "https://opencode.ai",
  credentialEnv: ["OPENCODE_COOKIE"],
  settings: [
    {
      field: "cookieHeader",
      title: "OpenCode Cookie Header",
      description:
        "Cookie header of a signed-in opencode.ai (from the browser's developer tools); only its auth cookie is sent. Browser cookies are not read by Raycast.",
      placeholder: "auth=…",
    },
  ],
});
