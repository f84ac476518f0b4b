import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "ollama",
  name: "Ollama",
  auth: ["Browser cookies (Chrome by default)", "Manual cookie header"],
  dashboardUrl: "https://ollama.com/settings",
  credentialEnv: ["OLLAMA_COOKIE"],
  settings: [
    {
      field: "cookieHeader",
      title: "Ollama Cookie Header",
      description:
        "Empty: Chrome's cookies for ollama.com are read (signed in there). Or paste the Cookie header of a signed-in ollama.com/settings (from the browser's developer tools); it must carry the session cookie.",
      placeholder: "__Secure-session=…",
    },
  ],
});
