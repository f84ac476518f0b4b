import type { HttpTransport } from "../../ports/http-client.js";
import type { StatusFeed } from "../../ports/status-feed.js";

/**
 * One StatusFeed for every kind of polled source a descriptor can name. Each reader (its schemas
 * included) loads on its first poll, so a run that polls nothing loads none.
 */
export function createStatusFeed(transport: HttpTransport): StatusFeed {
  return {
    async read(source, { signal }) {
      return source.feed === "statuspage"
        ? (await import("./statuspage-feed.js")).readStatuspage(transport, source, signal)
        : (await import("./google-workspace-feed.js")).readGoogleWorkspace(transport, source, signal);
    },
  };
}
