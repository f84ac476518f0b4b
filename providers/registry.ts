import type { ProviderDescriptor } from "../domain/descriptor.js";
import { lazyCatalog } from "../domain/provider-catalog.js";
import type { ProviderCatalog } from "../ports/provider-module.js";
import { descriptor as amp } from "./amp/descriptor.js";
import { descriptor as antigravity } from "./antigravity/descriptor.js";
import { descriptor as augment } from "./augment/descriptor.js";
import { descriptor as claude } from "./claude/descriptor.js";
import { descriptor as codex } from "./codex/descriptor.js";
import { descriptor as copilot } from "./copilot/descriptor.js";
import { descriptor as cursor } from "./cursor/descriptor.js";
import { descriptor as factory } from "./factory/descriptor.js";
import { descriptor as gemini } from "./gemini/descriptor.js";
import { descriptor as jetbrains } from "./jetbrains/descriptor.js";
import { descriptor as kilo } from "./kilo/descriptor.js";
import { descriptor as kimi } from "./kimi/descriptor.js";
import { descriptor as kimik2 } from "./kimik2/descriptor.js";
import { descriptor as kiro } from "./kiro/descriptor.js";
import { descriptor as minimax } from "./minimax/descriptor.js";
import { descriptor as ollama } from "./ollama/descriptor.js";
import { descriptor as opencode } from "./opencode/descriptor.js";
import { descriptor as openrouter } from "./openrouter/descriptor.js";
import { descriptor as vertexai } from "./vertexai/descriptor.js";
import { descriptor as warp } from "./warp/descriptor.js";
import { descriptor as zai } from "./zai/descriptor.js";

/**
 * Every provider, once, in the default display order: its descriptor (data), and its module (the
 * strategies and what they import), loaded when a run first needs it: `quotabar -p openrouter` loads
 * OpenRouter's code and no other provider's. The id list, the catalog, the simulator's upstreams,
 * `quotabar providers`, the docs index and the Raycast preferences all come from here.
 */
export const PROVIDER_CATALOG: ProviderCatalog = lazyCatalog([
  { descriptor: copilot, load: async () => (await import("./copilot/index.js")).copilot },
  { descriptor: openrouter, load: async () => (await import("./openrouter/index.js")).openrouter },
  { descriptor: zai, load: async () => (await import("./zai/index.js")).zai },
  { descriptor: warp, load: async () => (await import("./warp/index.js")).warp },
  { descriptor: kimi, load: async () => (await import("./kimi/index.js")).kimi },
  { descriptor: kilo, load: async () => (await import("./kilo/index.js")).kilo },
  { descriptor: minimax, load: async () => (await import("./minimax/index.js")).minimax },
  { descriptor: kimik2, load: async () => (await import("./kimik2/index.js")).kimik2 },
  { descriptor: kiro, load: async () => (await import("./kiro/index.js")).kiro },
  { descriptor: vertexai, load: async () => (await import("./vertexai/index.js")).vertexai },
  { descriptor: augment, load: async () => (await import("./augment/index.js")).augment },
  { descriptor: amp, load: async () => (await import("./amp/index.js")).amp },
  { descriptor: jetbrains, load: async () => (await import("./jetbrains/index.js")).jetbrains },
  { descriptor: antigravity, load: async () => (await import("./antigravity/index.js")).antigravity },
  { descriptor: factory, load: async () => (await import("./factory/index.js")).factory },
  { descriptor: opencode, load: async () => (await import("./opencode/index.js")).opencode },
  { descriptor: ollama, load: async () => (await import("./ollama/index.js")).ollama },
  { descriptor: claude, load: async () => (await import("./claude/index.js")).claude },
  { descriptor: codex, load: async () => (await import("./codex/index.js")).codex },
  { descriptor: cursor, load: async () => (await import("./cursor/index.js")).cursor },
  { descriptor: gemini, load: async () => (await import("./gemini/index.js")).gemini },
]);

/** A provider's stable id (CodexBar-compatible, so one config file can serve both). */
export type ProviderId = string;

/** Every descriptor, in display order. */
export const DESCRIPTORS: readonly ProviderDescriptor[] = PROVIDER_CATALOG.descriptors();

/** The 17 stable ids, in display order. */
export const PROVIDER_IDS: readonly ProviderId[] = DESCRIPTORS.map((d) => d.id);

/** The descriptor of a known id (callers check unknown ids first). */
export function descriptorOf(id: string): ProviderDescriptor {
  const descriptor = PROVIDER_CATALOG.descriptor(id);
  if (!descriptor) throw new Error(`unknown provider ${id}`);
  return descriptor;
}
