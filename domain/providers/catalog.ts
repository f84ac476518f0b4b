import { ampDescriptor } from "./amp.js";
import { antigravityDescriptor } from "./antigravity.js";
import { augmentDescriptor } from "./augment.js";
import { copilotDescriptor } from "./copilot.js";
import type { ProviderDescriptor, ProviderId } from "./descriptor.js";
import { factoryDescriptor } from "./factory.js";
import { jetbrainsDescriptor } from "./jetbrains.js";
import { kiloDescriptor } from "./kilo.js";
import { kimiDescriptor } from "./kimi.js";
import { kimik2Descriptor } from "./kimik2.js";
import { kiroDescriptor } from "./kiro.js";
import { minimaxDescriptor } from "./minimax.js";
import { ollamaDescriptor } from "./ollama.js";
import { opencodeDescriptor } from "./opencode.js";
import { openrouterDescriptor } from "./openrouter.js";
import { vertexaiDescriptor } from "./vertexai.js";
import { warpDescriptor } from "./warp.js";
import { zaiDescriptor } from "./zai.js";

/** Every provider, in the default display order. */
export const DESCRIPTORS: readonly ProviderDescriptor[] = [
  copilotDescriptor,
  openrouterDescriptor,
  zaiDescriptor,
  warpDescriptor,
  kimiDescriptor,
  kiloDescriptor,
  minimaxDescriptor,
  kimik2Descriptor,
  kiroDescriptor,
  vertexaiDescriptor,
  augmentDescriptor,
  ampDescriptor,
  jetbrainsDescriptor,
  antigravityDescriptor,
  factoryDescriptor,
  opencodeDescriptor,
  ollamaDescriptor,
];

export function descriptorOf(id: ProviderId): ProviderDescriptor {
  const found = DESCRIPTORS.find((d) => d.id === id);
  if (!found) throw new Error(`unknown provider ${id}`);
  return found;
}
