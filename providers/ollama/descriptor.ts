import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "ollama",
  name: "Ollama",
  auth: ["Browser cookies (Chrome)", "Manual cookie header"],
  dashboardUrl: "https://ollama.com/settings",
  settings: [
    {
      field: "cookieHeader",
      title: "Ollama Cookie Header",
      description: "Manual Cookie header for Ollama (copy it from the browser's developer tools). Browser cookies are not read by Raycast.",
      placeholder: "session=…",
    },
  ],
});
