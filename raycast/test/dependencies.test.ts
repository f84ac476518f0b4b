import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const extension = resolve(fileURLToPath(new URL("..", import.meta.url)));
const repo = resolve(extension, "..");

/** Every relative import of the TypeScript files under `dir`, as repository paths: `from -> to`. */
function imports(dir: string): { from: string; to: string }[] {
  const found: { from: string; to: string }[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name)) {
        const text = readFileSync(path, "utf8");
        for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*)["'](\.[^"']+)["']/g)) {
          found.push({ from: relative(repo, path), to: relative(repo, resolve(dirname(path), match[1]!)) });
        }
      }
    }
  };
  walk(join(repo, dir));
  return found;
}

const into = (edges: { from: string; to: string }[], folder: string) =>
  edges.filter((e) => e.to.startsWith(`${folder}/`)).map((e) => `${e.from} -> ${e.to}`);

describe("the extension's folders depend one way: commands -> raycast/shared -> core", () => {
  it("raycast/shared/ imports neither command folder (raycast/src/, menubar-raycast/)", () => {
    const edges = imports("raycast/shared");
    expect(into(edges, "raycast/src")).toEqual([]);
    expect(into(edges, "menubar-raycast")).toEqual([]);
  });

  it("menubar-raycast/ imports nothing from raycast/src/", () => {
    expect(into(imports("menubar-raycast"), "raycast/src")).toEqual([]);
  });

  it("raycast/src/ reaches menubar-raycast/ only through the menu-bar entry point ray build needs", () => {
    expect(into(imports("raycast/src"), "menubar-raycast")).toEqual(["raycast/src/menu-bar.tsx -> menubar-raycast/menu-bar-command.js"]);
  });
});
