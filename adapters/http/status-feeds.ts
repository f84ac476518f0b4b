import type { HttpTransport } from "../../ports/http-client.js";
import type { StatusFeed } from "../../ports/status-feed.js";
import { readGoogleWorkspace } from "./google-workspace-feed.js";
import { readStatuspage } from "./statuspage-feed.js";

/** One StatusFeed for every kind of polled source a descriptor can name. */
export function createStatusFeed(transport: HttpTransport): StatusFeed {
  return {
    read(source, { signal }) {
      return source.feed === "statuspage" ? readStatuspage(transport, source, signal) : readGoogleWorkspace(transport, source, signal);
    },
  };
}
