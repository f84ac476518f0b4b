import type { StatusReader } from "../../ports/status-feed.js";

/** Used when status checks are off: never a request. */
export const noStatus: StatusReader = { statusFor: async () => null };
