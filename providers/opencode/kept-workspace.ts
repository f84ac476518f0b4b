import { QuotabarError, type FetchContext } from "../kit/index.js";
import { asWorkspaceId } from "./workspace.js";

const KEPT_WORKSPACE = "workspace";
/**
 * Listing the workspaces costs a round trip on every refresh, and an account's first workspace
 * rarely changes; one that did is noticed by the subscription call and listed again at once. A
 * week only bounds how long an id lingers for a cookie no longer used.
 */
const WORKSPACE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * How a kept workspace can fail when it is gone or no longer the account's: no subscription, an
 * answer without usage, a 4xx the table leaves as `upstream` (404, 410...), or the 500 a server
 * function answers when it throws. A refused session (401/403, a sign-in page), a rate limit, a
 * timeout or an outage say nothing about the workspace: they stay the error.
 */
function mayBeStale(error: unknown): boolean {
  if (!(error instanceof QuotabarError)) return false;
  if (error.code === "not_configured" || error.code === "parse") return true;
  const status = error.status ?? 0;
  return error.code === "upstream" && ((status >= 400 && status < 500) || status === 500);
}

/**
 * The subscription of the account's first workspace: with the id kept from an earlier run on this
 * cookie, one call; without, the listing first and the id kept once it gave usage. A kept id that
 * may be stale is forgotten, listed again and asked once more (unless the listing names it again:
 * asking twice would only repeat the answer).
 */
export async function withKeptWorkspace<T>(
  kept: FetchContext["kept"],
  list: () => Promise<string>,
  read: (workspaceId: string) => Promise<T>,
): Promise<T> {
  const keptId = asWorkspaceId(await kept.read(KEPT_WORKSPACE));
  if (keptId !== null) {
    try {
      return await read(keptId);
    } catch (error) {
      if (!mayBeStale(error)) throw error;
      await kept.forget(KEPT_WORKSPACE);
      const listed = await list();
      if (listed === keptId) throw error;
      return readAndKeep(kept, listed, read);
    }
  }
  return readAndKeep(kept, await list(), read);
}

async function readAndKeep<T>(kept: FetchContext["kept"], workspaceId: string, read: (workspaceId: string) => Promise<T>): Promise<T> {
  const reading = await read(workspaceId);
  await kept.write(KEPT_WORKSPACE, workspaceId, WORKSPACE_TTL_MS);
  return reading;
}
