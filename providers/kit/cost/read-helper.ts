import { parentPort, workerData } from "node:worker_threads";
import { HELPER_MARK, serveReads, type HelperData } from "./read-threads.js";

/** The cost scan's helper thread (read-threads.ts starts it): built as one CommonJS file, dist/providers/kit/cost/read-helper.cjs. */
if (parentPort && (workerData as Record<string, unknown> | null)?.[HELPER_MARK] === true)
  void serveReads(parentPort, workerData as HelperData);
