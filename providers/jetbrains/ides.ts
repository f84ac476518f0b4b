import { compareText, configHome, dataHome, homeOf, joinPath, modifiedAt, subdirectories } from "../kit/index.js";
import type { Environment } from "../../ports/environment.js";

/** The file AI Assistant keeps its quota in, inside each IDE's config folder. */
export const QUOTA_FILE = "AIAssistantQuotaManager2.xml";

/** Folder-name prefix to product name; the first prefix that matches wins. AppCode is a harmless 15th. */
const PRODUCTS: readonly (readonly [prefix: string, name: string])[] = [
  ["IntelliJIdea", "IntelliJ IDEA"],
  ["PyCharm", "PyCharm"],
  ["WebStorm", "WebStorm"],
  ["GoLand", "GoLand"],
  ["CLion", "CLion"],
  ["DataGrip", "DataGrip"],
  ["RubyMine", "RubyMine"],
  ["Rider", "Rider"],
  ["PhpStorm", "PhpStorm"],
  ["AppCode", "AppCode"],
  ["Fleet", "Fleet"],
  ["AndroidStudio", "Android Studio"],
  ["RustRover", "RustRover"],
  ["Aqua", "Aqua"],
  ["DataSpell", "DataSpell"],
];

export interface Ide {
  product: string;
  /** Whatever follows the prefix (`2025.1`, `CE2024.3`), `Unknown` when nothing does. */
  version: string;
}

/** The IDE a config folder belongs to (`IntelliJIdea2025.1`), null for any other folder (`IdeaIC2024.3` included). */
export function ideOf(folder: string): Ide | null {
  const match = PRODUCTS.find(([prefix]) => folder.toLowerCase().startsWith(prefix.toLowerCase()));
  if (!match) return null;
  return { product: match[1], version: folder.slice(match[0].length) || "Unknown" };
}

export const ideLabel = (ide: Ide): string => `${ide.product} ${ide.version}`;

/** Where the IDE vendors (JetBrains, and Google for Android Studio) keep per-version config folders; none on other systems. */
export function ideBases(env: Environment, platform: NodeJS.Platform): string[] {
  if (platform === "darwin") {
    const support = joinPath(homeOf(env), "Library", "Application Support");
    return [joinPath(support, "JetBrains"), joinPath(support, "Google")];
  }
  if (platform === "win32") return [];
  return [joinPath(configHome(env), "JetBrains"), joinPath(dataHome(env), "JetBrains"), joinPath(configHome(env), "Google")];
}

interface Candidate {
  ide: Ide;
  file: string;
  modified: number;
}

/** The quota file of the IDE that wrote its quota last; null when no IDE has one. */
export async function newestQuotaFile(bases: readonly string[]): Promise<string | null> {
  const found = await Promise.all(
    bases.map(async (base) => {
      const folders = await subdirectories(base);
      return Promise.all(
        folders.map(async (folder): Promise<Candidate | null> => {
          const ide = ideOf(folder);
          if (!ide) return null;
          const file = joinPath(base, folder, "options", QUOTA_FILE);
          const modified = await modifiedAt(file);
          return modified === null ? null : { ide, file, modified };
        }),
      );
    }),
  );
  const candidates = found.flat().filter((c): c is Candidate => c !== null);
  // ties go to the first in display order: product name, then the newest version
  candidates.sort((a, b) => compareText(a.ide.product, b.ide.product) || compareVersions(b.ide.version, a.ide.version));
  const newest = candidates.reduce<Candidate | null>((best, c) => (best === null || c.modified > best.modified ? c : best), null);
  return newest?.file ?? null;
}

/** `2025.1` against `2024.3` by their numbers, component by component. */
function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => (v.match(/\d+/g) ?? []).map(Number)) as [number[], number[]];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const diff = (x[i] ?? 0) - (y[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}
