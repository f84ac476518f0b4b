import { notConfigured, type FetchStrategy, type ProviderCode } from "../kit/index.js";
import { kiroBinary } from "./credentials.js";
import { notInstalled } from "./errors.js";
import { kiroLogFile, kiroLogRoot, type KiroLogFile } from "./log-file.js";
import { kiroSnapshot, type KiroReading } from "./policy.js";
import { kiroLogSnapshot, type KiroLimits } from "./policy-log.js";

const isAuto = (context: { sourceMode: string }) => context.sourceMode === "auto";

/**
 * The last usage answer Kiro (the IDE) logged, when it is fresh: the same object kiro-cli shows,
 * without running anything. An old answer, none, or one that cannot be read hands over to kiro-cli
 * in auto mode (a spent budget does not: nothing would be left for it).
 */
export const kiroLog: FetchStrategy<KiroLogFile, KiroLimits> = {
  source: "local",
  credentials: kiroLogFile,
  missingCredential: (context) => {
    if (isAuto(context)) return notInstalled();
    const root = kiroLogRoot(context.env);
    return notConfigured(root === null ? "Kiro's log is read on macOS and Linux only." : `No Kiro log (q-client.log) under ${root}.`);
  },
  fallbackOn: (error, context) => isAuto(context) && error.code !== "timeout",
  toSnapshot: kiroLogSnapshot,
  // the wire (the log's tail, the answer's reading) loads with the first fetch
  fetch: async (log, context) => (await import("./wire-log.js")).readKiroLog(log, context),
};

/**
 * `kiro-cli chat --no-interactive /usage`, after `kiro-cli whoami` as a login check. The credential is
 * the binary's path: found means set up, and no process runs to find it.
 */
export const kiroCli: FetchStrategy<string, KiroReading> = {
  source: "cli",
  credentials: kiroBinary,
  missingCredential: notInstalled,
  toSnapshot: kiroSnapshot,
  // the wire (CLI runs, output parsing) loads with the first fetch: listing providers never loads it
  fetch: async (binary, context) => (await import("./wire.js")).readKiro(binary, context),
};

/** No HTTP upstream: its simulator writes Kiro's log and a stand-in kiro-cli into the demo's home instead. */
export const kiro: ProviderCode = {
  // auto: Kiro's own log when its answer is fresh, then kiro-cli
  strategies: [kiroLog, kiroCli],
  simulator: async () => (await import("./simulator.js")).kiroUpstream,
};
