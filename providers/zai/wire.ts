import {
  advice,
  cleanSecret,
  decodeValue,
  overrideUrl,
  parseError,
  parseJson,
  QuotabarError,
  toText,
  type CredentialContext,
  type FetchContext,
  type Remedy,
} from "../kit/index.js";
import { zCount, zNumber, zPercent } from "../kit/schema.js";
import * as z from "../../domain/zod.js";
import { ENV } from "./credentials.js";
import type { ZaiReading } from "./policy.js";

const QUOTA_PATH = "/api/monitor/usage/quota/limit";

export type ZaiRegion = "global" | "bigmodel-cn";
const REGION_HOSTS: Record<ZaiRegion, string> = {
  global: "https://api.z.ai",
  "bigmodel-cn": "https://open.bigmodel.cn",
};

const CHECK_REGION_TEXT = "Check the z.ai API region (Global vs BigModel CN) and your API token.";
// A wrong region looks like a bad token or an empty body, so failures point at the region too.
const CHECK_REGION: Remedy[] = [
  advice(CHECK_REGION_TEXT),
  { kind: "set-config", provider: "zai", field: "region", example: "bigmodel-cn" },
];

/** Absent and null both read as undefined. */
const optional = <T extends z.ZodMiniType<number>>(number: T) =>
  z.pipe(
    z.nullish(number),
    z.transform((value) => value ?? undefined),
  );
// Counts and the percentage are checked here: a negative one is a parse error naming it (above 100 % is a full meter).
const Limit = z.object({
  type: z.string(),
  unit: zNumber,
  number: zNumber,
  percentage: zPercent,
  usage: optional(zCount),
  currentValue: optional(zCount),
  remaining: optional(zCount),
  nextResetTime: optional(zNumber),
  usageDetails: z.pipe(
    z.nullish(z.array(z.object({ modelCode: z.string(), usage: zCount }))),
    z.transform((value) => value ?? undefined),
  ),
});
const Envelope = z.object({
  code: zNumber,
  msg: z.nullish(z.string()),
  success: z.boolean(),
  data: z.nullish(
    z.object({
      limits: z.nullish(z.array(Limit)),
      planName: z.nullish(z.string()),
      plan: z.nullish(z.string()),
      plan_type: z.nullish(z.string()),
      packageName: z.nullish(z.string()),
      level: z.nullish(z.string()),
    }),
  ),
});

/** Current answers name the plan only by `level`; a lower-case word (`pro`) is shown capitalised (`Pro`). */
function levelName(level: string | null | undefined): string | null {
  const text = toText(level);
  return text && /^[a-z]+$/.test(text) ? `${text[0]!.toUpperCase()}${text.slice(1)}` : text;
}

/** `global` unless the entry says China (`bigmodel-cn`, or the friendlier `china` / `cn`). */
export function zaiRegion(region: unknown): ZaiRegion {
  const value = typeof region === "string" ? region.trim().toLowerCase() : "";
  return ["bigmodel-cn", "china", "cn", "bigmodel"].includes(value) ? "bigmodel-cn" : "global";
}

/** Z_AI_QUOTA_URL verbatim, else Z_AI_API_HOST (+ the quota path when it has none), else the region's host. */
export function zaiQuotaUrl({ env, entry }: Pick<CredentialContext, "env" | "entry">): string {
  const full = cleanSecret(env.Z_AI_QUOTA_URL);
  if (full) return overrideUrl(full, "Z_AI_QUOTA_URL").toString();
  const host = cleanSecret(env.Z_AI_API_HOST);
  if (host) {
    const url = overrideUrl(host, "Z_AI_API_HOST");
    if (url.pathname === "" || url.pathname === "/") url.pathname = QUOTA_PATH;
    return url.toString();
  }
  return `${REGION_HOSTS[zaiRegion(entry.region)]}${QUOTA_PATH}`;
}

export async function readZai(key: string, { http, env, entry }: FetchContext): Promise<ZaiReading> {
  const response = await http
    .request({ url: zaiQuotaUrl({ env, entry }), headers: { Authorization: `Bearer ${key}`, Accept: "application/json" } })
    .catch((error: QuotabarError) => {
      throw error.code === "unauthorized" || error.code === "forbidden" ? error.withRemedies(...CHECK_REGION) : error;
    });
  if (response.body.trim() === "") {
    throw parseError(`Failed to parse z.ai response: Empty response body (HTTP ${response.status}). ${CHECK_REGION_TEXT}`, ...CHECK_REGION);
  }
  let body: unknown;
  try {
    body = parseJson(response.body, "z.ai");
  } catch (error) {
    throw (error as QuotabarError).withRemedies(...CHECK_REGION);
  }
  const envelope = decodeValue(body, Envelope, "z.ai");
  // z.ai answers a bad token with HTTP 200 and an error envelope
  if (!envelope.success || envelope.code !== 200) {
    const msg = envelope.msg?.trim() || `code ${envelope.code}`;
    const authLike = /token|auth|api key|apikey|unauthori/i.test(msg);
    throw new QuotabarError(authLike ? "unauthorized" : "upstream", `z.ai API error: ${msg}`, {
      remedies: authLike ? [{ kind: "set-key", provider: "zai", env: ENV }, ...CHECK_REGION] : CHECK_REGION,
    });
  }
  if (!envelope.data) throw parseError("Failed to parse z.ai response: Missing data", ...CHECK_REGION);
  const { limits, planName, plan, plan_type, packageName, level } = envelope.data;
  return {
    plan: [planName, plan, plan_type, packageName, levelName(level)].map(toText).find((name) => name !== null) ?? null,
    limits: limits ?? [],
  };
}
