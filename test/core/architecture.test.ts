import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const SKIP = new Set(["node_modules", "dist", ".git", "preview-out"]);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx|js|mjs)$/.test(name) ? [path] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g)].map((m) => m[1] as string);
}

describe("architecture", () => {
  it("keeps domain/ and ports/ free of adapters and drivers", () => {
    const offenders = ["domain", "ports"].flatMap((layer) =>
      sources(join(ROOT, layer)).flatMap((file) =>
        imports(file)
          .filter(
            (spec) =>
              /(^|\/)(adapters|oclif-cli|raycast|menubar-raycast|library)\//.test(spec) ||
              /^(got|@oclif\/|@raycast\/|better-sqlite3|classic-level|@napi-rs\/keyring)/.test(spec),
          )
          .map((spec) => `${relative(ROOT, file)} -> ${spec}`),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it("imports @raycast/* only from raycast/ and menubar-raycast/ (and the Raycast test double)", () => {
    const offenders = sources(ROOT)
      .filter((file) => !/^(raycast|menubar-raycast)\//.test(relative(ROOT, file)))
      .filter((file) => !/test\/raycast-double\//.test(relative(ROOT, file)))
      .flatMap((file) =>
        imports(file)
          .filter((spec) => spec.startsWith("@raycast/"))
          .map((spec) => `${relative(ROOT, file)} -> ${spec}`),
      );
    expect(offenders).toEqual([]);
  });

  it("gives the library entry no side effects: importing it opens no socket and writes nothing", async () => {
    const { execFileSync } = await import("node:child_process");
    const script = `
      import net from "node:net"; import fs from "node:fs";
      const calls = [];
      for (const name of ["connect", "createConnection"]) { const orig = net[name]; net[name] = (...a) => { calls.push(name); return orig(...a); }; }
      const w = fs.writeFileSync; fs.writeFileSync = (...a) => { calls.push("write"); return w(...a); };
      const lib = await import(${JSON.stringify(join(ROOT, "dist", "index.js"))});
      if (typeof lib.createQuotabar !== "function") throw new Error("no createQuotabar");
      lib.createQuotabar({ env: { HOME: "/nonexistent" } });
      console.log(JSON.stringify(calls));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(JSON.parse(out)).toEqual([]);
  });

  it("keeps VERSION equal to package.json", async () => {
    const { VERSION } = await import("../../domain/version.js");
    expect(VERSION).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
  });
});
