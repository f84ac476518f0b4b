import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "factory",
  name: "Factory (Droid)",
  auth: [
    "Cached cookie header (OS secret store)",
    "Stored session file: cookies, bearer token, WorkOS refresh token",
    "WorkOS tokens in browser Local Storage (Safari, Chromium family)",
    "Safari cookies, then Safari cookies minted into a token",
    "Chrome / Firefox cookies, then Chrome / Firefox cookies minted into a token",
  ],
  dashboardUrl: "https://app.factory.ai/settings/billing",
  status: { kind: "polled", feed: "statuspage", url: "https://status.factory.ai" },
  settings: [
    {
      field: "cookieHeader",
      title: "Factory Cookie Header",
      description:
        "Manual Cookie header for app.factory.ai (copy it from the browser's developer tools), or an Authorization: Bearer token. Tried before the stored session and the browsers.",
      placeholder: "wos-session=…",
    },
  ],
});
