import {
  advice,
  firstAt,
  isObject,
  parseError,
  parseJson,
  QuotabarError,
  leftProblem,
  toNumber,
  toText,
  toTime,
  valueAt,
  type ProviderHttp,
} from "../kit/index.js";
import { excerptOutsideFetch } from "../../domain/redact.js";
import { SERVICE } from "./language-server.js";
import type { AntigravityReading, ModelQuota } from "./policy.js";

export type QuotaMethod = "GetUserStatus" | "GetCommandModelConfigs";

const MAX_MODELS = 200;
const MAX_LABEL = 100;
const OK_CODE = /^(0|ok|success)$/i;
const AUTH_CODE = /^(unauthenticated|permission_denied)$/i;
// userTier.name is what newer builds fill; the planInfo names are older, in the order the app reads them
const PLAN_PATHS = [
  "userTier.name",
  "planStatus.planInfo.planDisplayName",
  "planStatus.planInfo.displayName",
  "planStatus.planInfo.productName",
  "planStatus.planInfo.planName",
  "planStatus.planInfo.planShortName",
];

/**
 * A quota answer: `userStatus` (GetUserStatus) or top-level `clientModelConfigs` (GetCommandModelConfigs).
 * `excerpt` quotes what the server said in an error (the fetch's `http.excerpt`: redacted, then cut).
 */
export function readQuota(method: QuotaMethod, body: string, excerpt: ProviderHttp["excerpt"] = excerptOutsideFetch): AntigravityReading {
  const root = parseJson(body, SERVICE);
  ensureOk(root, excerpt);
  if (method === "GetCommandModelConfigs") {
    return { plan: null, email: null, models: modelsOf(valueAt(root, "clientModelConfigs"), "clientModelConfigs") };
  }
  const status = valueAt(root, "userStatus");
  if (!isObject(status)) throw parseError(`Could not parse ${SERVICE} quota: GetUserStatus has no userStatus`);
  const path = "userStatus.cascadeModelConfigData.clientModelConfigs";
  return {
    plan: firstAt([status], PLAN_PATHS, toText),
    email: toText(status.email),
    models: modelsOf(valueAt(root, path), path),
  };
}

/** Connect answers carry `code` (number or text): absent, 0, "ok" and "success" mean OK. */
function ensureOk(root: unknown, excerpt: ProviderHttp["excerpt"]): void {
  const raw = valueAt(root, "code");
  const code = typeof raw === "number" ? String(raw) : toText(raw);
  if (code === null || OK_CODE.test(code)) return;
  const detail = toText(valueAt(root, "message"));
  const message = `${SERVICE} API error: ${excerpt(code) || "empty code"}${detail ? ` (${excerpt(detail)})` : ""}`;
  if (AUTH_CODE.test(code)) throw new QuotabarError("expired", message, { remedies: [advice("Restart Antigravity and sign in again.")] });
  throw new QuotabarError("upstream", message, { remedies: [advice("Restart Antigravity and retry.")] });
}

/** Models with a label and a quotaInfo; the rest are not quotas. A remainingFraction that is not a number is a parse error (above 1 is nothing used). */
function modelsOf(raw: unknown, path: string): ModelQuota[] {
  if (!Array.isArray(raw)) throw parseError(`Could not parse ${SERVICE} quota: ${path} is missing`);
  const models: ModelQuota[] = [];
  for (const [index, config] of raw.slice(0, MAX_MODELS).entries()) {
    const label = toText(valueAt(config, "label"));
    const quota = valueAt(config, "quotaInfo");
    if (label === null || !isObject(quota)) continue;
    const fraction = quota.remainingFraction;
    const remainingFraction = toNumber(fraction);
    const problem = remainingFraction === null ? "is not a number" : leftProblem(remainingFraction);
    if (fraction !== undefined && fraction !== null && problem !== null) {
      throw parseError(`Could not parse ${SERVICE} quota: ${path}[${index}].quotaInfo.remainingFraction ${problem}`);
    }
    models.push({ label: label.slice(0, MAX_LABEL), remainingFraction, resetsAt: toTime(quota.resetTime) });
  }
  if (models.length === 0) throw parseError(`Could not parse ${SERVICE} quota: No quota models available`);
  return models;
}
