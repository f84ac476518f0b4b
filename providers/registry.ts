import type { ProviderDescriptor } from "../domain/descriptor.js";
import type { ProviderCatalog, ProviderModule } from "../ports/provider-module.js";
import { amp } from "./amp/index.js";
import { antigravity } from "./antigravity/index.js";
import { augment } from "./augment/index.js";
import { copilot } from "./copilot/index.js";
import { factory } from "./factory/index.js";
import { jetbrains } from "./jetbrains/index.js";
import { kilo } from "./kilo/index.js";
import { kimi } from "./kimi/index.js";
import { kimik2 } from "./kimik2/index.js";
import { kiro } from "./kiro/index.js";
import { minimax } from "./minimax/index.js";
import { ollama } from "./ollama/index.js";
import { opencode } from "./opencode/index.js";
import { openrouter } from "./openrouter/index.js";
import { vertexai } from "./vertexai/index.js";
import { warp } from "./warp/index.js";
import { zai } from "./zai/index.js";

/**
 * Every provider, once, in the default display order. The id list, the catalog, the simulator's
 * upstreams, `quotabar providers`, the docs index and the Raycast preferences all come from here.
 */
export const PROVIDERS: readonly ProviderModule[] = [
  copilot,
  openrouter,
  zai,
  warp,
  kimi,
  kilo,
  minimax,
  kimik2,
  kiro,
  vertexai,
  augment,
  amp,
  jetbrains,
  antigravity,
  factory,
  opencode,
  ollama,
];

/** A provider's stable id (CodexBar-compatible, so one config file can serve both). */
export type ProviderId = string;

/** The 17 stable ids, in display order. */
export const PROVIDER_IDS: readonly ProviderId[] = PROVIDERS.map((m) => m.descriptor.id);

/** The descriptor of a known id (callers check unknown ids first). */
export function descriptorOf(id: string): ProviderDescriptor {
  const module = PROVIDER_CATALOG.get(id);
  if (!module) throw new Error(`unknown provider ${id}`);
  return module.descriptor;
}

/** Every descriptor, in display order. */
export const DESCRIPTORS = PROVIDERS.map((m) => m.descriptor);

export const PROVIDER_CATALOG: ProviderCatalog = {
  all: () => PROVIDERS,
  get: (id) => PROVIDERS.find((m) => m.descriptor.id === id),
};
