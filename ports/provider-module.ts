import type { ProviderDescriptor } from "../domain/descriptor.js";
import type { Clock } from "./clock.js";
import type { ProviderConfigEntry } from "./config-store.js";
import type { DeviceFlow } from "./device-flow.js";
import type { AnyFetchStrategy } from "./fetch-strategy.js";
import type { HttpTransport } from "./http-client.js";
import type { SessionKeeper } from "./session-keeper.js";
import type { SimulatedUpstream } from "./simulated-upstream.js";

/**
 * A provider's code, what its index.ts exports: how to fetch it, how to fake it. Its descriptor
 * (data) is beside it in descriptor.ts; the catalog puts the two together.
 */
export interface ProviderCode {
  /** In the order they are tried; empty until the provider's sources land. */
  strategies: readonly AnyFetchStrategy[];
  /** Its upstreams as the simulator plays them; loaded only when a simulator runs. */
  simulator?: () => Promise<SimulatedUpstream>;
  /** Its sign-in flow (descriptor.signIn), loaded when a user signs in. */
  signIn?: () => Promise<(deps: { transport: HttpTransport; clock: Clock; entry?: ProviderConfigEntry }) => DeviceFlow>;
  /** Its web session, kept alive between fetches by a long-lived driver (watch, the Raycast menu bar). */
  keepalive?: SessionKeeper;
}

/** A provider's whole story as the program sees it: what it is, how to fetch it, how to fake it. */
export interface ProviderModule extends ProviderCode {
  descriptor: ProviderDescriptor;
}

/**
 * Every provider the running program knows, in display order. The descriptors are data; a module
 * (its strategies and what they import) loads when first asked for, so a run that fetches one
 * provider loads one provider's code.
 */
export interface ProviderCatalog {
  descriptors(): readonly ProviderDescriptor[];
  /** Undefined for an id not known here. */
  descriptor(id: string): ProviderDescriptor | undefined;
  /** Undefined for an id not known here. */
  load(id: string): Promise<ProviderModule | undefined>;
}
