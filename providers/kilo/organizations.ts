import { advice, isObject, QuotabarError, toText, tryJson, type ProviderHttp, type Remedy } from "../kit/index.js";
import type { ProviderConfigEntry } from "../../ports/config-store.js";
import type { KiloOrganization } from "./policy.js";
import { decodeTrpcBatch, trpcBatchUrl } from "./trpc-batch.js";

/** The usage call asks for an organization's usage with this header; without it, the personal account's. */
export const ORGANIZATION_HEADER = "X-KILOCODE-ORGANIZATIONID";

const PROFILE_URL = "https://api.kilo.ai/api/profile";
/** Discovery only names the scope: each of its calls gets at most this long. */
const DISCOVERY_BUDGET_MS = 2_000;
const MAX_ORGANIZATIONS = 50;
const MAX_NAME = 80;
const ORGANIZATION_ID = /^[\w.:-]{1,128}$/;

/** An id as text: a string of id characters, or a whole number; null for anything else. */
function idText(value: unknown): string | null {
  const id = typeof value === "number" && Number.isSafeInteger(value) ? String(value) : toText(value);
  return id !== null && ORGANIZATION_ID.test(id) ? id : null;
}

const SET_ORGANIZATION: Remedy = { kind: "set-config", provider: "kilo", field: "organizationId" };

/** The organization of the entry's `organizationId`; null (absent or empty) is the personal account. */
export function kiloOrganizationId(entry: ProviderConfigEntry): string | null {
  const raw = entry.organizationId;
  if (raw === undefined || raw === null || raw === "") return null;
  const id = idText(raw);
  if (id === null) {
    throw new QuotabarError("not_configured", "Kilo organizationId is not an organization id.", {
      remedies: [
        advice("Use the id Kilo shows for the organization, or leave organizationId out for the personal account."),
        SET_ORGANIZATION,
      ],
    });
  }
  return id;
}

/** A rejected scoped call: the organization may be the cause rather than the credential. */
export function scopedAuthFailure(error: QuotabarError): QuotabarError {
  if (error.code !== "unauthorized" && error.code !== "forbidden") return error;
  return error.withRemedies(
    advice("The organization may not be one this account can read; check the id, or leave it out for the personal account."),
    SET_ORGANIZATION,
    ...error.remedies,
  );
}

/**
 * The account's organizations: tRPC `user.getOrganizations`, or the profile when that procedure is
 * unknown (HTTP 404). Best effort: any failure is null, never an error.
 */
export async function discoverOrganizations(http: ProviderHttp, token: string): Promise<KiloOrganization[] | null> {
  const headers = { Authorization: `Bearer ${token}`, Accept: "application/json" };
  try {
    const trpc = await http.request({
      url: trpcBatchUrl(["user.getOrganizations"]),
      headers,
      service: "Kilo",
      timeoutMs: DISCOVERY_BUDGET_MS,
      statusRules: { 404: "pass" },
    });
    const answer =
      trpc.status === 404 ? await http.request({ url: PROFILE_URL, headers, service: "Kilo", timeoutMs: DISCOVERY_BUDGET_MS }) : trpc;
    return organizationsIn(answer.body);
  } catch {
    return null;
  }
}

/**
 * Accepted: `[{"result":{"data":{"json":[...]}}}]`, `{"result":{"data":{"json":{"organizations":[...]}}}}`
 * and `{"organizations":[...]}`; null for anything else.
 */
export function organizationsIn(body: string): KiloOrganization[] | null {
  const root = tryJson(body);
  if (isObject(root) && Array.isArray(root.organizations)) return organizationList(root.organizations);
  const [result] = decodeTrpcBatch(body, 1);
  if (result?.kind !== "payload") return null;
  const { payload } = result;
  if (Array.isArray(payload)) return organizationList(payload);
  if (isObject(payload) && Array.isArray(payload.organizations)) return organizationList(payload.organizations);
  return null;
}

function organizationList(entries: readonly unknown[]): KiloOrganization[] {
  return entries
    .slice(0, MAX_ORGANIZATIONS)
    .filter(isObject)
    .flatMap((entry) => {
      const id = idText(entry.id);
      if (id === null) return [];
      return [{ id, name: toText(entry.name)?.slice(0, MAX_NAME) ?? null, role: toText(entry.role)?.slice(0, MAX_NAME) ?? null }];
    });
}
