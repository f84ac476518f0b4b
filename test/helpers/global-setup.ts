import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";

/** CLI tests run the built bin; build once when the sources are newer than dist. */
export default function setup(): void {
  const root = join(import.meta.dirname, "..", "..");
  const built = join(root, "dist", "oclif-cli", "commands.js");
  if (process.env.QUOTABAR_SKIP_BUILD === "1" && existsSync(built)) return;
  execFileSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(root, "tsconfig.build.json")], {
    stdio: "inherit",
  });
  execFileSync(process.execPath, [join(root, "dist", "oclif-cli", "write-root-help.js")], { stdio: "inherit" });
  if (!existsSync(built) || statSync(built).size === 0) throw new Error("build did not produce dist/oclif-cli/commands.js");
}
