import type { DependencyContainer } from "tsyringe";
import { createNodeContainer, type NodeContainerOptions } from "../library/node-container.js";

/** The CLI's composition root: the Node adapters, with the config path from `--config` when given. */
export function createCliContainer(flags: { config?: string | undefined }, extra: NodeContainerOptions = {}): DependencyContainer {
  return createNodeContainer({ env: process.env, ...(flags.config ? { configPath: flags.config } : {}), ...extra });
}
