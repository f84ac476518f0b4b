import { createNodeCore, type NodeCoreOptions } from "../library/node-core.js";
import type { Core } from "../library/compose-core.js";

/** The CLI's composition root: the Node core, with the config path from `--config` when given. */
export function createCliCore(flags: { config?: string | undefined }, extra: NodeCoreOptions = {}): Core {
  return createNodeCore({ env: process.env, ...(flags.config ? { configPath: flags.config } : {}), ...extra });
}
