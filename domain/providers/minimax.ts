import type { ProviderDescriptor } from "./descriptor.js";

export const minimaxDescriptor: ProviderDescriptor = {
  id: "minimax",
  name: "MiniMax",
  specLetter: "P",
  auth: ["API token", "Cached cookie header", "Browser cookies", "Chromium local storage token", "Manual cookie header"],
  dashboardUrl: "https://platform.minimax.io/user-center/payment/coding-plan",
  status: { kind: "none" },
  strategies: ["api", "web"],
  enabledByDefault: true,
  credentialEnv: ["MINIMAX_API_KEY"],
};
