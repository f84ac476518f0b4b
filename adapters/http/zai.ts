import { z } from "zod";
import { QuotabarError } from "../../domain/errors.js";
import { ZAI_HOSTS, ZAI_QUOTA_PATH, zaiSnapshot, type ZaiReading, type ZaiRegion } from "../../domain/providers/zai.js";
import type { FetchContext } from "../../ports/fetch-context.js";
import type { FetchStrategy } from "../../ports/fetch-strategy.js";
import type { HttpClient } from "../../ports/http-client.js";
import { apiKeyCredential, cleanSecret, missingApiKey } from "./api-key-credential.js";
import { overrideUrl } from "./base-url.js";
import { decodeValue, looseNumber } from "./decode.js";

const SERVICE = "z.ai";
const REGION_HINT = "Check the z.ai API region (Global vs BigModel CN) and your API token.";

const Limit = z.object({
  type: z.string(),
  unit: looseNumber,
  number: looseNumber,
  percentage: looseNumber,
  usage: looseNumber.nullish(),
  currentValue: looseNumber.nullish(),
  remaining: looseNumber.nullish(),
  nextResetTime: looseNumber.nullish(),
  usageDetails: z.array(z.object({ modelCode: z.string(), usage: looseNumber })).nullish(),
});
const Envelope = z.object({
  code: looseNumber,
  msg: z.string().nullish(),
  success: z.boolean(),
  data: z
    .object({
      limits: z.array(Limit).nullish(),
      planName: z.string().nullish(),
      plan: z.string().nullish(),
      plan_type: z.string().nullish(),
      packageName: z.string().nullish(),
    })
    .nullish(),
});

/** `global` unless the entry says China (`bigmodel-cn`, or the friendlier `china` / `cn`). */
export function zaiRegion(region: unknown): ZaiRegion {
  const value = typeof region === "string" ? region.trim().toLowerCase() : "";
  return ["bigmodel-cn", "china", "cn", "bigmodel"].includes(value) ? "bigmodel-cn" : "global";
}

/** Z_AI_QUOTA_URL verbatim, else Z_AI_API_HOST (+ the quota path when it has none), else the region's host. */
export function zaiQuotaUrl(context: FetchContext): string {
  const full = cleanSecret(context.env.Z_AI_QUOTA_URL);
  if (full) return overrideUrl(full, "Z_AI_QUOTA_URL").toString();
  const host = cleanSecret(context.env.Z_AI_API_HOST);
  if (host) {
    const url = overrideUrl(host, "Z_AI_API_HOST");
    if (url.pathname === "" || url.pathname === "/") url.pathname = ZAI_QUOTA_PATH;
    return url.toString();
  }
  return `${ZAI_HOSTS[zaiRegion(context.entry.region)]}${ZAI_QUOTA_PATH}`;
}

export function zaiStrategy(http: HttpClient): FetchStrategy<string, ZaiReading> {
  return {
    source: "api",
    credentials: apiKeyCredential(["Z_AI_API_KEY"]),
    missingCredential: (context) => missingApiKey("z.ai", "zai", "Z_AI_API_KEY", context, "z.ai API token not found"),
    toSnapshot: zaiSnapshot,
    usage: {
      async fetch(key, context) {
        const response = await http
          .request({
            url: zaiQuotaUrl(context),
            headers: { Authorization: `Bearer ${key}`, Accept: "application/json" },
            service: SERVICE,
            secrets: [key],
            signal: context.signal,
            timeoutMs: context.timeoutMs,
          })
          .catch((error: QuotabarError) => {
            if (error.code === "unauthorized" || error.code === "forbidden") error.withHint(REGION_HINT);
            throw error;
          });
        if (response.body.trim() === "") {
          throw new QuotabarError("parse", `Failed to parse z.ai response: Empty response body (HTTP ${response.status}). ${REGION_HINT}`, {
            hint: REGION_HINT,
          });
        }
        let raw: unknown;
        try {
          raw = JSON.parse(response.body);
        } catch {
          throw new QuotabarError("parse", "Failed to parse z.ai response: the body is not JSON", { hint: REGION_HINT });
        }
        const envelope = decodeValue(raw, Envelope, SERVICE);
        if (!envelope.success || envelope.code !== 200) {
          const msg = envelope.msg?.trim() || `code ${envelope.code}`;
          const authLike = /token|auth|api key|apikey|unauthori/i.test(msg);
          throw new QuotabarError(authLike ? "unauthorized" : "upstream", `z.ai API error: ${msg}`, {
            hint: authLike ? `Check Z_AI_API_KEY (or providers[zai].apiKey). ${REGION_HINT}` : REGION_HINT,
          });
        }
        if (!envelope.data) throw new QuotabarError("parse", "Failed to parse z.ai response: Missing data", { hint: REGION_HINT });
        const data = envelope.data;
        const plan = [data.planName, data.plan, data.plan_type, data.packageName].find((p) => typeof p === "string" && p.trim() !== "");
        return {
          plan: plan?.trim() ?? null,
          limits: (data.limits ?? []).map((l) => ({
            type: l.type,
            unit: l.unit,
            number: l.number,
            percentage: l.percentage,
            usage: l.usage ?? undefined,
            currentValue: l.currentValue ?? undefined,
            remaining: l.remaining ?? undefined,
            nextResetTime: l.nextResetTime ?? undefined,
            usageDetails: l.usageDetails ?? undefined,
          })),
        };
      },
    },
  };
}
