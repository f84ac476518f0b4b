import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "amp",
  name: "Amp",
  auth: [
    "Amp CLI's API key (from amp login)",
    "Cookie source Auto: browser cookies (Safari or Chromium-based, Firefox)",
    "Manual cookie header",
  ],
  dashboardUrl: "https://ampcode.com/settings",
  credentialEnv: ["AMP_COOKIE"],
  settings: [
    {
      field: "cookieHeader",
      title: "Amp Cookie Header",
      description:
        "Empty: the cookies of a browser signed in to ampcode.com are read. Or paste the Cookie header of a signed-in ampcode.com/settings (from the browser's developer tools); only its session cookie is sent.",
      placeholder: "session=…",
    },
  ],
});
