import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { CODEX_SIM } from "../../providers/codex/simulator.js";
import { CLAUDE_TEST_REFRESH_TOKEN, CLAUDE_TEST_TOKEN } from "../../providers/claude/simulator.js";
import { FACTORY_SIM } from "../../providers/factory/simulator.js";
import { GEMINI_SECRETS } from "../../providers/gemini/simulator.js";
import { VERTEX_SECRETS } from "../../providers/vertexai/simulator.js";

/** Where a test looks for a secret that got out: the credentials the simulator hands out, the files a run left. */

/**
 * Every file under a directory, as text (the cache), but V8's compiled code of dist/
 * (oclif-cli/code-cache.ts): it holds the program's own strings (module names such as
 * "simulator-*.cjs", header names), never a run's data.
 */
export function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (name.endsWith(".v8")) return [];
      return statSync(path).isDirectory() ? filesUnder(path) : [readFileSync(path, "utf8")];
    });
  } catch {
    return [];
  }
}

/**
 * The secrets the simulated upstreams accept: keys and tokens from their environments, each value of
 * a cookie header (a whole header is not one: its cookie names are no secret), the tokens of the
 * files they lay out (Vertex AI's ADC, Factory's session, Codex's auth.json, Claude Code's and the Gemini CLI's sign-ins). At least 8 characters each.
 */
export function simulatedSecrets(upstreams: readonly SimulatedUpstream[]): string[] {
  const values = upstreams.flatMap((u) => Object.values(u.env));
  const cookieValues = values.flatMap((v) => (v.includes("=") ? v.split(";").map((p) => p.split("=").slice(1).join("=").trim()) : []));
  const factory = [FACTORY_SIM.sessionCookie, FACTORY_SIM.bearer, FACTORY_SIM.refreshToken, FACTORY_SIM.workosCookie];
  const codex = [CODEX_SIM.accessToken, CODEX_SIM.idToken, CODEX_SIM.refreshToken, CODEX_SIM.accountId, CODEX_SIM.apiKey];
  const claude = [CLAUDE_TEST_TOKEN, CLAUDE_TEST_REFRESH_TOKEN];
  const all = [...values, ...cookieValues, ...VERTEX_SECRETS, ...GEMINI_SECRETS, ...factory, ...codex, ...claude].filter(
    (v) => v.length >= 8 && !/[\s;]/.test(v),
  );
  return [...new Set(all)];
}
