import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { createQuotabar } from "../../index.js";
import type { ProviderUsage } from "../../domain/usage-document.js";
import type { SimReply, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { ProviderSimulator } from "../../simulator/server.js";
import { simulatedUpstreams } from "../../simulator/upstreams.js";

/**
 * The simulator with every upstream's realistic answers, one of which a test changes before
 * quotabar reads it (a field set negative, a page swapped for a huge one): hostile input shaped
 * like the real thing, read through the library as a user's run would.
 */

/** What a test changes in an upstream answer (one of status 200): its body, its headers, its status. */
export type Edit = (reply: { status: number; body: string; headers: Record<string, string> }) => void;

type Path = readonly (string | number)[];

/** Sets the value at `path` of a JSON body; an answer without that path is left as it was. */
export const jsonAt =
  (path: Path, value: unknown): Edit =>
  (reply) => {
    const root = JSON.parse(reply.body) as unknown;
    let holder = root as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) holder = holder?.[key] as Record<string | number, unknown>;
    const last = path.at(-1)!;
    if (holder === null || typeof holder !== "object" || !(last in holder)) throw new Error(`the answer has no ${path.join(".")}`);
    holder[last] = value;
    reply.body = JSON.stringify(root);
  };

/** Replaces text of a body that is not JSON (a page, a seroval stream). */
export const textIn =
  (from: string, to: string): Edit =>
  (reply) => {
    if (!reply.body.includes(from)) throw new Error(`the answer has no ${from}`);
    reply.body = reply.body.replace(from, to);
  };

/** Replaces text inside a JSON string at `path` (Amp's balance text). */
export const textAt =
  (path: Path, from: string, to: string): Edit =>
  (reply) => {
    let holder = JSON.parse(reply.body) as unknown;
    for (const key of path) holder = (holder as Record<string | number, unknown> | undefined)?.[key];
    if (typeof holder !== "string" || !holder.includes(from)) throw new Error(`the answer has no ${from} at ${path.join(".")}`);
    jsonAt(path, holder.replace(from, to))(reply);
  };

export const headerOf =
  (name: string, value: string): Edit =>
  (reply) => {
    if (!(name in reply.headers)) throw new Error(`the answer has no ${name} header`);
    reply.headers[name] = value;
  };

/** The whole answer replaced (a page swapped for another, an error page), with its content type. */
export const answerOf =
  (body: string, contentType: string, status = 200): Edit =>
  (reply) => {
    reply.status = status;
    reply.body = body;
    reply.headers["content-type"] = contentType;
  };

interface Tampering {
  id: string;
  /** The request paths whose answers are changed (those the edit finds its field in). */
  routes: readonly string[];
  edit: Edit;
  applied: number;
  /** Why the edit left an answer as it was (it lacked the field). */
  missed: string | null;
}

export interface ReadOptions {
  source?: string;
  scenario?: string;
  /** Added to (or, when undefined, removed from) the simulator's environment. */
  env?: Record<string, string | undefined>;
}

/** Starts the simulator for a test file (a throwaway HOME, local providers' files laid out), with `withEdit` to change an answer. */
export function useTamperedSimulator() {
  const state: { sim: ProviderSimulator; home: string; tampering: Tampering | null } = { tampering: null } as never;

  /** An upstream whose answers on the active tampering's routes go through its edit. */
  const tampered = (upstream: SimulatedUpstream): SimulatedUpstream => ({
    ...upstream,
    routes: upstream.routes.map((route) => ({
      ...route,
      handle: async (request, scenario): Promise<SimReply> => {
        const reply = await route.handle(request, scenario);
        const active = state.tampering;
        if (!active || active.id !== upstream.id || !active.routes.includes(request.path) || (reply.status ?? 200) !== 200) return reply;
        const isJson = reply.json !== undefined;
        const changed = {
          status: 200,
          body: isJson ? JSON.stringify(reply.json) : (reply.body ?? ""),
          headers: { ...(isJson ? { "content-type": "application/json" } : {}), ...reply.headers },
        };
        try {
          active.edit(changed);
          active.applied++;
        } catch (error) {
          active.missed = (error as Error).message;
          return reply;
        }
        return { ...reply, json: undefined, status: changed.status, body: changed.body, headers: changed.headers };
      },
    })),
  });

  beforeAll(async () => {
    state.sim = await ProviderSimulator.start({ providers: (await simulatedUpstreams()).map(tampered) });
    state.home = mkdtempSync(join(tmpdir(), "quotabar-tampered-"));
    await state.sim.seedHome(state.home);
  });
  afterAll(async () => {
    await state.sim.stop();
    rmSync(state.home, { recursive: true, force: true });
  });
  beforeEach(() => {
    state.tampering = null;
    for (const p of state.sim.providers) state.sim.setScenario(p.id, p.scenarios[0] as string);
    // no snapshot of an earlier run is served in place of a failure
    rmSync(join(state.home, ".cache"), { recursive: true, force: true });
  });

  /** One provider read through the library, its secrets cached in memory only. */
  async function usageOf(id: string, { source, scenario, env: extra }: ReadOptions = {}): Promise<ProviderUsage> {
    if (scenario) state.sim.setScenario(id, scenario);
    const env = {
      ...state.sim.env(),
      HOME: state.home,
      XDG_CONFIG_HOME: undefined,
      XDG_CACHE_HOME: undefined,
      QUOTABAR_SECRET_STORE: "memory",
      ...extra,
    };
    const doc = await createQuotabar({ env }).usage({ providers: [id], ...(source ? { source } : {}) });
    return doc.providers[0]!;
  }

  /** The provider read once with `edit` applied to its answers on `routes`; at least one answer must have been changed. */
  async function withEdit(id: string, routes: string | readonly string[], edit: Edit, options: ReadOptions = {}): Promise<ProviderUsage> {
    state.tampering = { id, routes: typeof routes === "string" ? [routes] : routes, edit, applied: 0, missed: null };
    const usage = await usageOf(id, options);
    const { applied, missed } = state.tampering;
    state.tampering = null;
    expect(applied, `${id}: no answer on ${String(routes)} was changed (${missed})`).toBeGreaterThan(0);
    return usage;
  }

  return {
    get sim() {
      return state.sim;
    },
    usageOf,
    withEdit,
  };
}
