import {
  BROWSER_USER_AGENT,
  isObject,
  jsLiterals,
  QuotabarError,
  statusError,
  toText,
  tryJson,
  type HttpResponse,
  type ProviderHttp,
} from "../kit/index.js";
import { INVALID_SESSION, ORIGIN, SERVICE } from "./errors.js";

/** The SolidStart server functions the OpenCode dashboard calls. */
export const SERVER_FUNCTIONS = {
  workspaces: "def39973159c7f0483d8793a822b8dbb10d067e12c65455fcb4608459ba0234f",
  subscription: "7abeebee372f304e050aaaf92be863f4a86490e382f8c79db68fd94040d691b4",
  /** `queryBillingInfo` (the console's `billing.get`): balance, monthly limit, auto-reload. */
  billing: "c83b78a614689c38ebee981f9b39a8b377716db85c1fd7dbab604adc02d3313d",
} as const;

export interface ServerCall {
  functionId: string;
  /** The function's arguments; the workspace list takes none (and sends no `args`). */
  args: readonly string[];
  referer: string;
}

/** What a `_server` answer held: the literals of its body, or an explicit "nothing" (`null`). */
export type ServerAnswer = { kind: "null" } | { kind: "values"; values: unknown[]; mentionsSignIn: boolean };

/**
 * One call the way the dashboard makes it: GET `_server?id=...&args=[...]` with the id also in
 * X-Server-Id, or (the fallback) POST `_server` with the arguments as a JSON array.
 */
export async function callServerFunction(
  http: ProviderHttp,
  cookie: string,
  call: ServerCall,
  method: "GET" | "POST",
): Promise<ServerAnswer> {
  const query = new URLSearchParams({ id: call.functionId });
  if (call.args.length > 0) query.set("args", JSON.stringify(call.args));
  const response = await http.request({
    url: method === "GET" ? `${ORIGIN}/_server?${query}` : `${ORIGIN}/_server`,
    method,
    headers: {
      Cookie: cookie,
      "X-Server-Id": call.functionId,
      "X-Server-Instance": `server-fn:${globalThis.crypto.randomUUID().toUpperCase()}`,
      "User-Agent": BROWSER_USER_AGENT,
      Origin: ORIGIN,
      Referer: call.referer,
      Accept: "text/javascript, application/json;q=0.9, */*;q=0.8",
    },
    ...(method === "POST" ? { json: call.args } : {}),
    // every status is read here: a sign-in page comes with any of them
    statusRules: { "4xx": "pass", "5xx": "pass" },
  });
  const mentionsSignIn = saysSignIn(response.body);
  if (response.status !== 200) throw await failedCall(response, mentionsSignIn, http);
  if (isExplicitNull(response.body)) return { kind: "null" };
  return { kind: "values", values: jsLiterals(response.body, SERVICE), mentionsSignIn };
}

/** Sign-in words, and the error opencode.ai serializes for a session it does not know. */
function saysSignIn(body: string): boolean {
  const lower = body.toLowerCase();
  return ["login", "sign in", "auth/authorize", "not associated with an account", 'actor of type "public"'].some((words) =>
    lower.includes(words),
  );
}

/** `null`, or a serialized frame whose result is null (`...]=[],null)`). */
function isExplicitNull(body: string): boolean {
  const tail = body.slice(-200).replace(/\s+/g, "");
  return tail.toLowerCase() === "null" || tail.endsWith("]=[],null)");
}

/** A status other than 200: a refused session, or the status table's error with the body's own message. */
async function failedCall(response: HttpResponse, mentionsSignIn: boolean, http: ProviderHttp): Promise<QuotabarError> {
  if (response.status === 401 || response.status === 403 || mentionsSignIn) return INVALID_SESSION.error(response.status);
  const base = statusError(response, SERVICE) as QuotabarError;
  const detail = await errorDetail(response.body, http);
  if (detail === null) return base;
  return new QuotabarError(base.code, `${base.message}: ${detail}`, { status: response.status, remedies: base.remedies });
}

/** The body's `message` / `error` / `detail`, or an HTML page's title (the page parser loads only for such a page), redacted then cut. */
async function errorDetail(body: string, http: ProviderHttp): Promise<string | null> {
  const json = tryJson(body);
  const text = isObject(json) ? (toText(json.message) ?? toText(json.error) ?? toText(json.detail)) : await pageTitle(body);
  return text === null ? null : http.excerpt(text) || null;
}

async function pageTitle(body: string): Promise<string | null> {
  const [{ parsePage }, { elementsWhere, ownText }] = await Promise.all([import("../kit/html.js"), import("../kit/html-elements.js")]);
  return elementsWhere(parsePage(body, SERVICE), (e) => e.name === "title").map(ownText)[0] ?? null;
}
