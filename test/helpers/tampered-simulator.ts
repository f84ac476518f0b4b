import { rmSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, beforeEach, expect } from "vitest";
import type { ProviderUsage } from "../../domain/usage-document.js";
import type { SimReply, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { useSimulator } from "./harness.js";

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

/** The harness's simulator (a throwaway HOME, local providers' files laid out), with `withEdit` to change an answer. */
export function useTamperedSimulator() {
  let tampering: Tampering | null = null;

  /** An upstream whose answers on the active tampering's routes go through its edit. */
  const tampered = (upstream: SimulatedUpstream): SimulatedUpstream => ({
    ...upstream,
    routes: upstream.routes.map((route) => ({
      ...route,
      handle: async (request, scenario): Promise<SimReply> => {
        const reply = await route.handle(request, scenario);
        const active = tampering;
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

  const simulated = useSimulator({ upstreams: (all) => all.map(tampered) });
  beforeAll(() => simulated.sim.seedHome(simulated.home));
  beforeEach(() => {
    tampering = null;
  });

  /** One provider read through the library (the harness's environment, `env` added). */
  async function usageOf(id: string, { source, scenario, env }: ReadOptions = {}): Promise<ProviderUsage> {
    if (scenario) simulated.sim.setScenario(id, scenario);
    const doc = await simulated.quotabar(env).usage({ providers: [id], ...(source ? { source } : {}) });
    return doc.providers[0]!;
  }

  /** The provider read once with `edit` applied to its answers on `routes`; at least one answer must have been changed. */
  async function withEdit(id: string, routes: string | readonly string[], edit: Edit, options: ReadOptions = {}): Promise<ProviderUsage> {
    const active: Tampering = { id, routes: typeof routes === "string" ? [routes] : routes, edit, applied: 0, missed: null };
    tampering = active;
    // no snapshot of an earlier read is served in place of a failure
    rmSync(join(simulated.home, ".cache"), { recursive: true, force: true });
    const usage = await usageOf(id, options);
    tampering = null;
    expect(active.applied, `${id}: no answer on ${String(routes)} was changed (${active.missed})`).toBeGreaterThan(0);
    return usage;
  }

  return {
    get sim() {
      return simulated.sim;
    },
    /** The HOME the provider is read in (its cache under .cache/). */
    get home() {
      return simulated.home;
    },
    usageOf,
    withEdit,
  };
}
