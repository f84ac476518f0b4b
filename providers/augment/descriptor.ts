import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "augment",
  name: "Augment",
  auth: ["auggie CLI (auggie account status)", "Browser cookies of app.augmentcode.com", "Manual cookie header"],
  dashboardUrl: "https://app.augmentcode.com/account/subscription",
  credentialEnv: ["AUGMENT_COOKIE"],
  keepsSession: true,
  settings: [
    {
      field: "cookieHeader",
      title: "Augment Cookie Header",
      description:
        "Cookie header of a signed-in app.augmentcode.com (from the browser's developer tools). Optional: the auggie CLI, then the browsers' cookies, are used without it.",
      placeholder: "_session=…",
    },
  ],
});
