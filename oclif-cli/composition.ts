import { createNodeCore, type NodeCoreOptions } from "../library/node-core.js";
import type { Core } from "../library/compose-core.js";

/**
 * The CLI's composition root: the Node core, with the config path from `--config` when given. A
 * terminal on stderr means a person is there to answer a browser-key prompt; a pipe or a cron job
 * never gets one.
 */
export function createCliCore(flags: { config?: string | undefined }, extra: NodeCoreOptions = {}): Core {
  return createNodeCore({
    env: process.env,
    interactive: process.stderr.isTTY === true,
    ...(flags.config ? { configPath: flags.config } : {}),
    ...extra,
  });
}
