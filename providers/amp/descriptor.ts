import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "amp",
  name: "Amp",
  auth: ["Browser cookies (auto)", "Manual cookie header"],
  dashboardUrl: "https://ampcode.com/settings",
  settings: [
    {
      field: "cookieHeader",
      title: "Amp Cookie Header",
      description: "Manual Cookie header for Amp (copy it from the browser's developer tools). Browser cookies are not read by Raycast.",
      placeholder: "session=…",
    },
  ],
});
