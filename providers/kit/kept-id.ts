import type { FetchContext } from "../../ports/fetch-context.js";

type Kept = FetchContext["kept"];

/** Such an id rarely changes, and the run that names it again follows a change: the lifetime only bounds how long a stale record lingers. */
const ID_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * An id an upstream named in an earlier run with this credential (a user id, a project: no secret, kept in
 * the cache file), so that a later run sends the request that needs it beside the one that names it
 * (one round trip). What is read back from disk is used only when it has `shape`.
 */
export function keptId(
  name: string,
  shape: RegExp,
): { read(kept: Kept): Promise<string | null>; keep(kept: Kept, id: string): Promise<void> } {
  return {
    async read(kept) {
      const value = await kept.read(name);
      return typeof value === "string" && shape.test(value) ? value : null;
    },
    async keep(kept, id) {
      if (shape.test(id)) await kept.write(name, id, ID_TTL_MS);
    },
  };
}
