import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { VERSION } from "../domain/version.js";
import { renderRootHelp } from "./root-help.js";

/** Build step: dist/oclif-cli/root-help.txt, printed by bin/run.cjs for `--help` without loading oclif. */
writeFileSync(join(import.meta.dirname, "root-help.txt"), `${renderRootHelp(VERSION)}\n`);
