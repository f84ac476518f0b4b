/**
 * `npm run manifest`: rewrites raycast/package.json from the provider registry (see
 * raycast-manifest.ts). `--check` writes nothing and exits 1 when the file is out of date.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { renderManifest } from "./raycast-manifest.js";

const path = fileURLToPath(new URL("../raycast/package.json", import.meta.url));
const current = readFileSync(path, "utf8");
const next = renderManifest(current);

if (next === current) console.log("raycast/package.json is up to date");
else if (process.argv.includes("--check")) {
  console.error("raycast/package.json is out of date: run npm run manifest");
  process.exitCode = 1;
} else {
  writeFileSync(path, next);
  console.log("raycast/package.json updated from the provider registry");
}
