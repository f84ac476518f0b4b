import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NodeProcessRunner } from "../../adapters/process/node-process-runner.js";
import { UsageDocumentSchema, type UsageDocument } from "../../domain/usage-document.js";
import { composeCore } from "../../library/compose-core.js";
import { writeCliRemedies } from "../../library/remedy-text.js";
import type { HttpTransport } from "../../ports/http-client.js";
import type { TextStore } from "../../ports/text-store.js";
import { PROVIDERS } from "../helpers/providers.js";

const RUNS = 320;
/** Stands for `n` nested arrays, spliced into the body text (too deep to build as a value here). */
const DEEP = "__deeply_nested__";
const ROOT = join(import.meta.dirname, "..", "..");

/** Every JSON fixture of a provider: the realistic bodies the mutations start from. */
function jsonFixtures(id: string): unknown[] {
  const dir = join(ROOT, "providers", id, "fixtures");
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith(".json"))
    .flatMap((name) => {
      try {
        return [JSON.parse(readFileSync(join(dir, name), "utf8"))];
      } catch {
        return [];
      }
    });
}

/** Paths to every value inside a body (bounded). */
function paths(value: unknown, prefix: (string | number)[] = [], depth = 0): (string | number)[][] {
  if (depth > 12 || value === null || typeof value !== "object") return [prefix];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [prefix, ...keys.flatMap((key) => paths((value as Record<string | number, unknown>)[key], [...prefix, key], depth + 1))];
}

function replaced(body: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = (Array.isArray(body) ? [...body] : { ...(body as object) }) as Record<string | number, unknown>;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  copy[head] = replaced(copy[head], rest, replacement);
  return copy;
}

/** Hostile values: wrong types, impossible numbers, terminal escapes, deep nesting, huge strings. */
const hostile = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(-1, -600, 0, 1e308, Number.MAX_SAFE_INTEGER, "NaN", "-5", "1e999", "", null, "1970-01-01T00:00:00Z", "0"),
  fc.string({ unit: "binary", maxLength: 40 }).map((s) => `\u001b]0;${s}\u0007\u001b[2J${s}`),
  fc.integer({ min: 1_000, max: 100_000 }).map((n) => `${DEEP}${n}`),
  fc.constant("x".repeat(100_000)),
);

const memoryStore = (): TextStore => {
  const map = new Map<string, string>();
  return { read: async (k) => map.get(k) ?? null, write: async (k, v) => void map.set(k, v), remove: async (k) => void map.delete(k) };
};

function strings(value: unknown, depth = 0): string[] {
  if (typeof value === "string") return [value];
  if (depth > 20 || value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap((v) => strings(v, depth + 1));
}

/** Providers that read HTTP bodies (local ones, JetBrains' files and Kiro's CLI output, fuzz their own readers). */
const fuzzed = (
  await Promise.all(
    PROVIDERS.filter((m) => m.strategies.length > 0 && m.simulator).map(async (m) => ({ m, upstream: await m.simulator!() })),
  )
)
  .filter(({ upstream }) => upstream.origins.length > 0)
  .map(({ m }) => m);

describe("every provider's decoder on mutated bodies", () => {
  it.each(fuzzed.map((m) => m.descriptor.id))(
    "%s: no throw, a valid document, no secret, no control character, no value out of range",
    async (id) => {
      const upstream = await PROVIDERS.find((m) => m.descriptor.id === id)!.simulator!();
      const env = { ...upstream.env, HOME: "/nonexistent-home", PATH: process.env.PATH };
      const secrets = Object.values(upstream.env).filter((v) => v.length >= 8);
      const bodies = jsonFixtures(id);
      expect(bodies.length).toBeGreaterThan(0);
      let body = "";
      const transport: HttpTransport = {
        send: async (request) => ({ status: 200, headers: { "content-type": "application/json" }, body, url: request.url }),
      };
      const core = composeCore({
        env,
        clock: { now: () => new Date("2026-11-20T10:00:00Z") },
        config: { path: () => "/nonexistent/config.json", load: async () => ({ providers: [] }), update: async () => ({ providers: [] }) },
        store: memoryStore(),
        transport,
        processes: new NodeProcessRunner(""),
        originMap: new Map(),
        writeRemedies: writeCliRemedies,
        status: { statusFor: async () => null },
      });
      const mutation = fc.nat({ max: bodies.length - 1 }).chain((which) => {
        const fixture = bodies[which];
        const all = paths(fixture);
        return fc.tuple(fc.constantFrom(...all), hostile, fc.boolean()).map(([path, value, asText]) => {
          const text = JSON.stringify(replaced(fixture, path, value)).replace(
            new RegExp(`"${DEEP}(\\d+)"`),
            (_m, n: string) => "[".repeat(Number(n)) + "]".repeat(Number(n)),
          );
          return asText ? text.slice(0, 1 + Math.floor(text.length / 2)) : text;
        });
      });
      await fc.assert(
        fc.asyncProperty(mutation, async (mutatedBody) => {
          body = mutatedBody;
          const doc: UsageDocument = await core.usage.usage({ providers: [id], timeoutMs: 5_000 });
          UsageDocumentSchema.parse(doc);
          const text = strings(doc);
          for (const secret of secrets) expect(text.join("\n")).not.toContain(secret);
          // eslint-disable-next-line no-control-regex -- looking for control characters is the point
          expect(text.some((s) => /[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(s))).toBe(false);
          for (const meter of [doc.providers[0]!.primary, doc.providers[0]!.secondary, doc.providers[0]!.tertiary]) {
            if (!meter) continue;
            for (const n of [meter.used, meter.limit]) if (n !== null) expect(Number.isFinite(n) && n >= 0).toBe(true);
          }
        }),
        { numRuns: RUNS },
      );
    },
    60_000,
  );
});
