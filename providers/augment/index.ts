import type { ProviderModule } from "../../ports/provider-module.js";
import { descriptor } from "./descriptor.js";
import { augmentKeepalive } from "./keepalive.js";
import { augmentCli } from "./wire-cli.js";
import { augmentWeb } from "./wire-web.js";

/** `auggie account status` when auggie is installed, else (and after any CLI failure but a parse error) the web app with cookies. */
export const augment: ProviderModule = {
  descriptor,
  strategies: [augmentCli, ...augmentWeb],
  simulator: async () => (await import("./simulator.js")).augmentUpstream,
  keepalive: augmentKeepalive,
};
