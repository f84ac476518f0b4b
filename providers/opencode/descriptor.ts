import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "opencode",
  name: "OpenCode",
  auth: ["Browser cookies (Chrome)", "Manual cookie header"],
  dashboardUrl: "https://opencode.ai",
  settings: [
    {
      field: "cookieHeader",
      title: "OpenCode Cookie Header",
      description:
        "Manual Cookie header for OpenCode (copy it from the browser's developer tools). Browser cookies are not read by Raycast.",
      placeholder: "session=…",
    },
  ],
});
