import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "amp",
  name: "Amp",
  // browser cookies (Safari or Chromium-based) join as the first method once the browser reader lands
  auth: ["Manual cookie header"],
  dashboardUrl: "https://ampcode.com/settings",
  credentialEnv: ["AMP_COOKIE"],
  settings: [
    {
      field: "cookieHeader",
      title: "Amp Cookie Header",
      description:
        "Cookie header of a signed-in ampcode.com/settings (from the browser's developer tools); only its session cookie is sent. Browser cookies are not read by Raycast.",
      placeholder: "session=…",
    },
  ],
});
