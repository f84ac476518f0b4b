import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "augment",
  name: "Augment",
  auth: ["auggie CLI", "Browser cookies"],
  dashboardUrl: "https://app.augmentcode.com/account/subscription",
  settings: [
    {
      field: "cookieHeader",
      title: "Augment Cookie Header",
      description:
        "Manual Cookie header for Augment (copy it from the browser's developer tools). Browser cookies are not read by Raycast.",
      placeholder: "session=…",
    },
  ],
});
