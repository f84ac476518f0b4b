import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "ollama",
  name: "Ollama",
  // browser cookies (Chrome) join as the first method once the browser reader lands
  auth: ["Manual cookie header"],
  dashboardUrl: "https://ollama.com/settings",
  credentialEnv: ["OLLAMA_COOKIE"],
  settings: [
    {
      field: "cookieHeader",
      title: "Ollama Cookie Header",
      description:
        "Cookie header of a signed-in ollama.com/settings (from the browser's developer tools); it must carry the session cookie. Browser cookies are not read by Raycast.",
      placeholder: "__Secure-session=…",
    },
  ],
});
