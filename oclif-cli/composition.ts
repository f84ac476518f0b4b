import type { DependencyContainer } from "tsyringe";
import { CopilotDeviceFlow } from "../adapters/http/copilot-device-flow.js";
import { createNodeContainer, type NodeContainerOptions } from "../library/node-container.js";
import type { Clock } from "../ports/clock.js";
import type { DeviceFlow } from "../ports/device-flow.js";
import type { HttpClient } from "../ports/http-client.js";
import { TOKENS } from "../ports/tokens.js";

/** The CLI's composition root: the Node adapters, with the config path from `--config` when given. */
export function createCliContainer(flags: { config?: string | undefined }, extra: NodeContainerOptions = {}): DependencyContainer {
  return createNodeContainer({ env: process.env, ...(flags.config ? { configPath: flags.config } : {}), ...extra });
}

/** The Copilot device flow over the container's HttpClient, so QUOTABAR_ORIGIN_MAP applies to it too. */
export function createCliDeviceFlow(container: DependencyContainer): DeviceFlow {
  return new CopilotDeviceFlow({ http: container.resolve<HttpClient>(TOKENS.HttpClient), clock: container.resolve<Clock>(TOKENS.Clock) });
}
