import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { UsageDocumentSchema } from "../../domain/usage-document.js";

const FILE = join(import.meta.dirname, "..", "..", "schema", "usage-document.schema.json");

describe("usage document JSON Schema", () => {
  it("is generated from the zod schema and kept in sync (UPDATE_SCHEMA=1 npm run schema rewrites it)", () => {
    const generated = `${JSON.stringify(z.toJSONSchema(UsageDocumentSchema), null, 2)}\n`;
    if (process.env.UPDATE_SCHEMA === "1") writeFileSync(FILE, generated);
    expect(readFileSync(FILE, "utf8")).toBe(generated);
  });

  it("rejects a percent outside 0..100, a string percent and an unknown error code", () => {
    const provider = {
      id: "x",
      name: "X",
      ok: false,
      source: null,
      plan: null,
      secondary: null,
      tertiary: null,
      details: [],
      status: null,
      fetchedAt: null,
      stale: false,
      primary: null,
      error: { code: "not_configured", message: "m", hint: null },
    };
    const doc = (p: object) => ({ version: 1, generatedAt: "2026-11-20T10:00:00.000Z", providers: [{ ...provider, ...p }] });
    expect(UsageDocumentSchema.safeParse(doc({})).success).toBe(true);
    const meter = { label: "m", used: null, limit: null, unit: null, unlimited: false, resetsAt: null, windowMinutes: null, note: null };
    expect(UsageDocumentSchema.safeParse(doc({ primary: { ...meter, usedPercent: 101 } })).success).toBe(false);
    expect(UsageDocumentSchema.safeParse(doc({ primary: { ...meter, usedPercent: "50" } })).success).toBe(false);
    expect(UsageDocumentSchema.safeParse(doc({ error: { code: "oops", message: "m", hint: null } })).success).toBe(false);
  });
});
