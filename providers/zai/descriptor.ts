import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "zai",
  name: "z.ai",
  auth: ["API key", "Region Global or China"],
  dashboardUrl: "https://z.ai/manage-apikey/subscription",
  credentialEnv: ["Z_AI_API_KEY"],
  settings: [
    {
      field: "apiKey",
      title: "z.ai API Key",
      description: "Your z.ai (or BigModel) API token.",
    },
    {
      field: "region",
      title: "z.ai Region",
      description: "Global (api.z.ai) or China (open.bigmodel.cn). Left at Global, a region set in the shared config file is kept.",
      options: [
        {
          title: "Global",
          value: "global",
        },
        {
          title: "China (BigModel)",
          value: "bigmodel-cn",
        },
      ],
      default: "global",
    },
  ],
});
