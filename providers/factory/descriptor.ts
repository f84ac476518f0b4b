import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "factory",
  name: "Factory (Droid)",
  auth: ["Stored session, tokens and browser cookies (nine-step chain)"],
  dashboardUrl: "https://app.factory.ai/settings/billing",
  status: { kind: "polled", feed: "statuspage", url: "https://status.factory.ai" },
  settings: [
    {
      field: "cookieHeader",
      title: "Factory Cookie Header",
      description:
        "Manual Cookie header for Factory (copy it from the browser's developer tools). Browser cookies are not read by Raycast.",
      placeholder: "session=…",
    },
  ],
});
