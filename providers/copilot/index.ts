import type { ProviderModule } from "../../ports/provider-module.js";
import { descriptor } from "./descriptor.js";
import { copilotApi } from "./wire.js";

export const copilot: ProviderModule = {
  descriptor,
  strategies: [copilotApi],
  simulator: async () => (await import("./simulator.js")).copilotUpstream,
  signIn: async () => (await import("./device-flow.js")).copilotDeviceFlow,
};
