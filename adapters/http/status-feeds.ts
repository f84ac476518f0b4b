import type { HttpClient } from "../../ports/http-client.js";
import type { StatusFeed } from "../../ports/status-feed.js";
import { readGoogleWorkspace } from "./google-workspace-feed.js";
import { readStatuspage } from "./statuspage-feed.js";

/** One StatusFeed for every kind of polled source a descriptor can name. */
export function createStatusFeed(http: HttpClient): StatusFeed {
  return {
    read(source, { signal }) {
      return source.feed === "statuspage" ? readStatuspage(http, source, signal) : readGoogleWorkspace(http, source, signal);
    },
  };
}
