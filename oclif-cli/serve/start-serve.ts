/**
 * `quotabar serve`, a driving adapter like the CLI and Raycast: it composes the core, runs the watch
 * engine with one loop per provider (each on its own timer: a slow upstream never holds the others
 * back; the session keepalive runs in each), and serves what the loops have over HTTP (http-api.ts)
 * and as Prometheus metrics (metrics.ts). Nothing here knows a provider.
 */
import type { Server } from "node:http";
import type { Core } from "../../library/compose-core.js";
import type { Environment } from "../../ports/environment.js";
import { keepaliveLine } from "../commands/watch.js";
import { createHttpApi, listen } from "./http-api.js";
import { createMetrics } from "./metrics.js";
import { ServeState } from "./serve-state.js";

export interface ServeOptions {
  host: string;
  /** 0: any free port (tests, the bench). */
  port: number;
  intervalMs: number;
  /** Which providers; default: the enabled ones, chosen once at start. */
  providers?: readonly string[];
  /** Checked by the command: required off loopback. */
  token: string | null;
  /** Per-provider time budget of a refresh; default: the config's, else 15 s. */
  timeoutMs?: number;
  /** The core (tests); else one is composed from `env` and `config` as the CLI does. */
  core?: Core;
  env?: Environment;
  config?: string;
  /** Refresh failures and keepalive news, a line each (stderr). */
  log(line: string): void;
}

export interface ServeHandle {
  url: string;
  providers: readonly string[];
  state: ServeState;
  /** Ends the loops, closes the server and its connections; resolves when all is stopped. */
  stop(): Promise<void>;
}

export async function startServe(options: ServeOptions): Promise<ServeHandle> {
  const core =
    options.core ??
    (await import("../composition.js")).createCliCore(
      { config: options.config },
      options.env ? { env: options.env, interactive: false } : { interactive: false },
    );
  const ids = await core.usage.select(await core.config.load(), options.providers);
  const state = new ServeState(ids);
  const env = options.env ?? process.env;
  const server: Server = createHttpApi({
    state,
    metrics: createMetrics(state, env),
    token: options.token,
    intervalMs: options.intervalMs,
    now: () => core.clock.now(),
    env,
  });
  const url = await listen(server, options.host, options.port);

  // a controller per loop: each sleeping loop listens to its own signal
  const controllers = ids.map(() => new AbortController());
  state.running = true;
  const loops = ids.map((id, i) =>
    core
      .watch({
        intervalMs: options.intervalMs,
        request: { providers: [id], status: true, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) },
        signal: (controllers[i] as AbortController).signal,
        async onDocument(document, refresh) {
          // the readings just kept (a local file, no upstream): the page draws each window's sparkline from them
          const history = await core.history({ providers: [id] }).catch(() => []);
          for (const usage of document.providers) {
            state.record(usage, refresh, history.find((h) => h.provider === usage.id) ?? null);
            if (!usage.ok && usage.error) options.log(`${usage.name}: ${usage.error.code}: ${usage.error.message}`);
          }
        },
        onKeepalive(reports) {
          for (const line of reports.map(keepaliveLine)) if (line) options.log(line);
        },
        onError: (error) => options.log(`Error: ${(error as Error).message ?? String(error)}`),
      })
      .catch((error: unknown) => {
        // the loop itself broke (a bug): /healthz says so rather than serving numbers that no longer move
        state.running = false;
        options.log(`Error: the refresh loop of ${id} stopped: ${(error as Error).message ?? String(error)}`);
      }),
  );

  let stopping: Promise<void> | null = null;
  return {
    url,
    providers: ids,
    state,
    stop: () =>
      (stopping ??= (async () => {
        state.running = false;
        for (const controller of controllers) controller.abort();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        // a fetch under way is abandoned at its next step, not awaited to its end
        await Promise.all([closed, Promise.race([Promise.all(loops), new Promise((resolve) => setTimeout(resolve, 1_000).unref())])]);
      })()),
  };
}
