import { advice, notConfigured, type FetchContext, type ProviderHttp, type QuotabarError } from "../kit/index.js";
import { INVALID_SESSION, openCodeParseError, ORIGIN } from "./errors.js";
import { withKeptWorkspace } from "./kept-workspace.js";
import { billingOf } from "./billing.js";
import type { OpenCodeBilling, OpenCodeReading, SubscriptionWindows } from "./policy.js";
import { callServerFunction, SERVER_FUNCTIONS, type ServerAnswer, type ServerCall } from "./server-fn.js";
import { subscriptionWindows } from "./subscription.js";
import { firstWorkspaceId, workspaceOverride } from "./workspace.js";

/** The GET first; the POST only when the GET's answer is of no use. */
async function callWithFallback(
  http: ProviderHttp,
  cookie: string,
  call: ServerCall,
  usable: (answer: ServerAnswer) => boolean,
): Promise<ServerAnswer> {
  const answer = await callServerFunction(http, cookie, call, "GET");
  return usable(answer) ? answer : callServerFunction(http, cookie, call, "POST");
}

/** The account's first workspace; a sign-in answer without one means the session is gone. */
async function listedWorkspace(http: ProviderHttp, cookie: string): Promise<string> {
  const call = { functionId: SERVER_FUNCTIONS.workspaces, args: [], referer: ORIGIN };
  const idOf = (answer: ServerAnswer) => (answer.kind === "values" ? firstWorkspaceId(answer.values) : null);
  const answer = await callWithFallback(http, cookie, call, (a) => idOf(a) !== null || (a.kind === "values" && a.mentionsSignIn));
  const id = idOf(answer);
  if (id !== null) return id;
  if (answer.kind === "values" && answer.mentionsSignIn) throw INVALID_SESSION.error();
  throw openCodeParseError("Missing workspace id (the account lists no workspace).");
}

function noSubscription(workspaceId: string): QuotabarError {
  return notConfigured(
    `No subscription usage data was returned for workspace ${workspaceId}. This usually means this workspace does not have OpenCode subscription quota data available.`,
    advice("Only a workspace with an OpenCode subscription reports usage."),
    { kind: "set-config", provider: "opencode", field: "workspaceID", example: "wrk_01K6AR1ZET89H8NB691FQ2C2VB" },
  );
}

/** The workspace's subscription windows; null on an explicit null (the workspace has no subscription). */
async function subscriptionOf(http: ProviderHttp, cookie: string, workspaceId: string): Promise<SubscriptionWindows | null> {
  const call = { functionId: SERVER_FUNCTIONS.subscription, args: [workspaceId], referer: `${ORIGIN}/workspace/${workspaceId}/billing` };
  const settled = (a: ServerAnswer) => a.kind === "null" || a.mentionsSignIn || "rolling" in subscriptionWindows(a.values);
  const answer = await callWithFallback(http, cookie, call, settled);
  if (answer.kind === "null") return null;
  const windows = subscriptionWindows(answer.values);
  if ("rolling" in windows) return windows;
  if (answer.mentionsSignIn) throw INVALID_SESSION.error();
  throw openCodeParseError(`Missing usage fields (${windows.missing.join(", ")}).`);
}

/** The workspace's balance and limits, best effort (one GET): any failure is no billing, never the provider's error. */
async function billingInfoOf(http: ProviderHttp, cookie: string, workspaceId: string): Promise<OpenCodeBilling | null> {
  const call = { functionId: SERVER_FUNCTIONS.billing, args: [workspaceId], referer: `${ORIGIN}/workspace/${workspaceId}` };
  try {
    const answer = await callServerFunction(http, cookie, call, "GET");
    return answer.kind === "values" && !answer.mentionsSignIn ? billingOf(answer.values) : null;
  } catch {
    return null;
  }
}

/**
 * The subscription and the billing, asked together. A subscription's failure stays the error; a
 * workspace with neither a subscription nor billing has nothing to show.
 */
async function usageOf(http: ProviderHttp, cookie: string, workspaceId: string): Promise<OpenCodeReading> {
  const [windows, billing] = await Promise.all([subscriptionOf(http, cookie, workspaceId), billingInfoOf(http, cookie, workspaceId)]);
  if (windows === null && billing === null) throw noSubscription(workspaceId);
  return { workspaceId, windows, billing };
}

/** The workspace (the config's, the one kept from an earlier run, or listed), then its subscription and billing. */
export async function readOpencode(cookie: string, context: FetchContext): Promise<OpenCodeReading> {
  const { http, kept } = context;
  // the config's workspace is asked as it is: nothing to list, nothing to keep
  const override = workspaceOverride(context);
  if (override !== null) return usageOf(http, cookie, override);
  return withKeptWorkspace(
    kept,
    () => listedWorkspace(http, cookie),
    (workspaceId) => usageOf(http, cookie, workspaceId),
  );
}
