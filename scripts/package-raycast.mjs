#!/usr/bin/env node
// npm run package:raycast: dist-raycast/, the Raycast extension as it is submitted to the Store (one
// folder with its own package.json and lockfile, no import leaving it).
//
// The repository stays the one source of truth: raycast/ is copied as it is, and every module of the
// core it reaches (menubar-raycast/, domain/, ports/, providers/, adapters/, library/, presentation/),
// type-only imports included, is copied under core/ with the same layout; only the relative imports
// that cross from the extension into the core are rewritten. The core's npm packages become the
// extension's dependencies, at the versions the repository's lockfile holds.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const EXTENSION = join(ROOT, "raycast");
// the extension's own compiler (raycast/node_modules): packaging needs only the extension installed
const ts = createRequire(join(EXTENSION, "package.json"))("typescript");
const OUT = join(ROOT, "dist-raycast");
const extensionPackage = JSON.parse(readFileSync(join(EXTENSION, "package.json"), "utf8"));

/** What a Store submission holds besides the code. */
// raycast-env.d.ts is not among them: ray build writes it from package.json (git ignores it, a clone has none)
const AS_IS = ["assets", "metadata", "README.md", "CHANGELOG.md"];

/** Every module specifier of a source, where it stands (the compiler's own scan: no string in the text is taken for one). */
const specifiersOf = (text) =>
  // `pos` is the opening quote's position
  ts
    .preProcessFile(text, true, true)
    .importedFiles.map(({ fileName, pos }) => ({ specifier: fileName, pos: pos + 1, end: pos + 1 + fileName.length }));

const inside = (dir, file) => file === dir || file.startsWith(dir + sep);

/** Where a source file goes in dist-raycast/: the extension's own at the top, the core's under core/. */
function destinationOf(file) {
  return inside(EXTENSION, file) ? join(OUT, relative(EXTENSION, file)) : join(OUT, "core", relative(ROOT, file));
}

/** `./x.js` as TypeScript sources write it: the .ts / .tsx file behind it. */
function resolveSource(fromFile, specifier) {
  const base = resolve(dirname(fromFile), specifier);
  const stem = base.replace(/\.(js|mjs|cjs|jsx)$/, "");
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, base, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`${relative(ROOT, fromFile)} imports ${specifier}, which is not there`);
}

const files = new Map(); // source -> text
const packages = new Set();

function visit(file) {
  if (files.has(file)) return;
  const text = readFileSync(file, "utf8");
  files.set(file, text);
  for (const { specifier } of specifiersOf(text)) {
    if (specifier.startsWith(".")) visit(resolveSource(file, specifier));
    else if (!specifier.startsWith("node:"))
      packages.add(specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]);
  }
}

const entries = ["src", "shared"].flatMap((dir) =>
  readdirSync(join(EXTENSION, dir), { recursive: true, encoding: "utf8" })
    .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
    .map((name) => join(EXTENSION, dir, name)),
);
for (const entry of entries) visit(entry);

rmSync(OUT, { recursive: true, force: true });
for (const [file, text] of files) {
  const to = destinationOf(file);
  let rewritten = text;
  for (const { specifier, pos, end } of specifiersOf(text).reverse()) {
    if (!specifier.startsWith(".")) continue;
    const target = destinationOf(resolveSource(file, specifier)).replace(/\.tsx?$/, specifier.match(/\.[a-z]+$/)?.[0] ?? "");
    let moved = relative(dirname(to), target).split(sep).join("/");
    if (!moved.startsWith(".")) moved = `./${moved}`;
    rewritten = rewritten.slice(0, pos) + moved + rewritten.slice(end);
  }
  mkdirSync(dirname(to), { recursive: true });
  writeFileSync(to, rewritten);
}
for (const name of AS_IS) cpSync(join(EXTENSION, name), join(OUT, name), { recursive: true });

// the compiler settings Raycast builds with; the core is compiled under them, as in the repository
const tsconfig = JSON.parse(readFileSync(join(EXTENSION, "tsconfig.json"), "utf8"));
tsconfig.include = ["src/**/*", "shared/**/*", "core/**/*", "raycast-env.d.ts"];
delete tsconfig.compilerOptions.paths; // the repository's paths point into raycast/node_modules; here they are the folder's own
writeFileSync(join(OUT, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
writeFileSync(
  join(OUT, "eslint.config.js"),
  '// The Store runs `ray lint`: its ESLint step uses Raycast\'s own rules.\nconst { defineConfig } = require("eslint/config");\nconst raycastConfig = require("@raycast/eslint-config");\n\nmodule.exports = defineConfig([...raycastConfig]);\n',
);

const lockedVersion = (name) => {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8"));
  const version = lock.packages?.[`node_modules/${name}`]?.version;
  if (!version) throw new Error(`the core imports ${name}, which the repository's lockfile does not hold`);
  return version;
};
const coreDependencies = [...packages].filter((name) => !name.startsWith("@raycast/") && name !== "react").sort();
const manifest = {
  ...extensionPackage,
  dependencies: {
    ...extensionPackage.dependencies,
    ...Object.fromEntries(coreDependencies.map((name) => [name, lockedVersion(name)])),
  },
  devDependencies: {
    ...extensionPackage.devDependencies,
    "@raycast/eslint-config": "^2.2.0",
    eslint: "^9.39.5",
    prettier: "^3.10.1",
  },
  scripts: {
    build: "ray build -e dist -o dist",
    dev: "ray develop",
    lint: "ray lint",
    "fix-lint": "ray lint --fix",
    publish: "npx @raycast/api@latest publish",
  },
};
delete manifest.devDependencies["@types/react-test-renderer"];
delete manifest.devDependencies["react-test-renderer"];
writeFileSync(join(OUT, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
writeFileSync(join(OUT, ".prettierrc"), `${JSON.stringify({ printWidth: 140 }, null, 2)}\n`);

// its own lockfile (the npm registry answers; nothing is installed or built here)
execFileSync("npm", ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: OUT, stdio: "inherit" });
console.log(
  `package:raycast: dist-raycast/ (${files.size} modules, ${files.size - entries.length} of them reached from src/ and shared/; dependencies ${coreDependencies.join(", ") || "none"} besides Raycast's)`,
);
