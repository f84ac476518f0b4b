import type { KeptValues } from "../ports/kept-values.js";

/** Kept values that live as long as the object: for a fetch that keeps nothing between runs (a keepalive ping) and for tests. */
export function keptInMemory(now: () => number = Date.now): KeptValues {
  const values = new Map<string, { value: unknown; expiresAt: number }>();
  const read = (name: string) => {
    const entry = values.get(name);
    return entry && entry.expiresAt > now() ? entry.value : null;
  };
  const write = async (name: string, value: unknown, ttlMs: number) => void values.set(name, { value, expiresAt: now() + ttlMs });
  return {
    read: async (name) => read(name),
    write,
    readSecret: async (name) => {
      const value = read(name);
      return typeof value === "string" ? value : null;
    },
    writeSecret: write,
    forget: async (name) => void values.delete(name),
  };
}
