import { DESCRIPTORS } from "../domain/providers/catalog.js";
import type { ProviderId } from "../domain/providers/descriptor.js";
import type { AnyFetchStrategy, ProviderPlugin, ProviderRegistry } from "../ports/fetch-strategy.js";
import type { HttpClient } from "../ports/http-client.js";
import { copilotStrategy } from "./http/copilot.js";
import { kiloStrategies } from "./http/kilo.js";
import { kimiStrategy } from "./http/kimi.js";
import { kimiK2Strategy } from "./http/kimik2.js";
import { minimaxStrategies } from "./http/minimax.js";
import { openRouterStrategy } from "./http/openrouter.js";
import { warpStrategy } from "./http/warp.js";
import { zaiStrategy } from "./http/zai.js";

export interface AdapterDependencies {
  http: HttpClient;
}

/** One line per implemented provider: its strategies in descriptor order. */
const STRATEGIES: Partial<Record<ProviderId, (deps: AdapterDependencies) => AnyFetchStrategy[]>> = {
  copilot: ({ http }) => [copilotStrategy(http)],
  openrouter: ({ http }) => [openRouterStrategy(http)],
  warp: ({ http }) => [warpStrategy(http)],
  zai: ({ http }) => [zaiStrategy(http)],
  kimi: ({ http }) => [kimiStrategy(http)],
  kilo: ({ http }) => kiloStrategies(http),
  kimik2: ({ http }) => [kimiK2Strategy(http)],
  minimax: ({ http }) => minimaxStrategies(http),
};

export function createProviderRegistry(deps: AdapterDependencies): ProviderRegistry {
  const plugins: ProviderPlugin[] = DESCRIPTORS.map((descriptor) => ({
    descriptor,
    strategies: STRATEGIES[descriptor.id]?.(deps) ?? [],
  }));
  return {
    all: () => plugins,
    get: (id) => plugins.find((p) => p.descriptor.id === id),
  };
}
