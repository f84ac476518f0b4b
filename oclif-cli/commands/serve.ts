import { Flags } from "@oclif/core";
import { isLoopback } from "../../domain/loopback.js";
import { QuotabarCommand, UsageError } from "../base-command.js";
import { formatDuration, parseDuration } from "../duration.js";
import { readServeToken, TokenError } from "../serve/bearer-token.js";
import { providerFlag, providerIds } from "../shared-flags.js";

const MIN_INTERVAL_MS = 10_000;
const MAX_INTERVAL_MS = 24 * 3_600_000;

export default class Serve extends QuotabarCommand {
  static override summary =
    "Serve the usage as a page (/) and over HTTP (/usage, /history, /healthz) and as Prometheus metrics (/metrics), refreshed every --interval.";
  static override description =
    "Each provider is refreshed on its own timer every --interval (default 5m), web sessions kept alive as `quotabar watch` does; requests are answered from what the last refresh brought and never cause an upstream call. GET / is a page that shows every provider at a glance in any browser (it asks for the token when there is one), GET /usage is the usage document (?provider=<id> filters, repeatable), GET /history the readings of each meter's current window, GET /healthz answers 200 while the refresh loop runs, GET /metrics is the Prometheus text format. It listens on 127.0.0.1 by default; any other address needs a bearer token (--token <file> or QUOTABAR_SERVE_TOKEN), which every request must then send as `Authorization: Bearer <token>`. There is no TLS: put a reverse proxy in front to serve it beyond a trusted network. SIGTERM or Ctrl-C stops it, exit 0.";
  static override examples = [
    "<%= config.bin %> serve",
    "<%= config.bin %> serve --port 9464 --interval 2m -p copilot -p openrouter",
    "<%= config.bin %> serve --host 0.0.0.0 --token ~/.config/quotabar/serve-token",
  ];
  static override flags = {
    host: Flags.string({
      description: "Address to listen on (anything but loopback needs --token)",
      default: "127.0.0.1",
      helpValue: "<address>",
    }),
    port: Flags.integer({ description: "Port to listen on (0: any free port)", default: 9464, min: 0, max: 65535, helpValue: "<port>" }),
    interval: Flags.string({
      description: "Time between refreshes of each provider: 30s, 5m, 1h (at least 10s)",
      default: "5m",
      helpValue: "<time>",
    }),
    provider: providerFlag("the enabled providers (chosen at start)"),
    token: Flags.string({
      description: "File holding the bearer token every request must send (default: $QUOTABAR_SERVE_TOKEN)",
      helpValue: "<file>",
    }),
    timeout: Flags.integer({
      description: "Seconds each provider may take (default: config timeoutSeconds, else 15)",
      min: 1,
      max: 600,
      helpValue: "<s>",
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Serve);
    const intervalMs = parseDuration(flags.interval);
    if (intervalMs === null || intervalMs < MIN_INTERVAL_MS || intervalMs > MAX_INTERVAL_MS) {
      throw new UsageError(`Invalid --interval: ${flags.interval}`, "Give a time from 10s to 24h, such as 30s, 5m or 1h.");
    }
    const token = await readServeToken(flags.token, process.env).catch((error: unknown) => {
      throw error instanceof TokenError ? new UsageError(error.message) : error;
    });
    if (token === null && !loopbackAddress(flags.host)) {
      throw new UsageError(
        `Refusing to serve on ${flags.host} without a token: anyone who can reach that address would read your usage.`,
        "Give --token <file> (or set QUOTABAR_SERVE_TOKEN) and send it as `Authorization: Bearer <token>`, or listen on 127.0.0.1.",
      );
    }
    const providers = flags.provider ? providerIds(flags.provider) : undefined;
    const core = await this.core(flags);
    const { startServe } = await import("../serve/start-serve.js");
    const serving = await startServe({
      core,
      host: flags.host,
      port: flags.port,
      intervalMs,
      token,
      ...(providers ? { providers } : {}),
      ...(flags.timeout ? { timeoutMs: flags.timeout * 1000 } : {}),
      log: (line) => process.stderr.write(`${line}\n`),
    }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") throw new UsageError(`${flags.host}:${flags.port} is in use`, "Pick another --port.");
      if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND") throw new UsageError(`Cannot listen on ${flags.host}`);
      throw error;
    });
    const ids = serving.providers;
    this.log(
      `Serving ${ids.length} provider${ids.length === 1 ? "" : "s"} (${ids.join(", ") || "none found: see quotabar providers"}) on ${serving.url}: the page at /, /usage, /history, /healthz, /metrics; refreshed every ${formatDuration(intervalMs)}.`,
    );
    await new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    await serving.stop();
    await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
    process.exit(0);
  }
}

/** 127.0.0.1 (any 127.x), ::1, localhost. */
function loopbackAddress(host: string): boolean {
  try {
    return isLoopback(new URL(`http://${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}`));
  } catch {
    return false;
  }
}
