import {
  advice,
  isObject,
  parseBoundedJson,
  parseError,
  QuotabarError,
  toText,
  type FetchContext,
  type StatusRules,
} from "../kit/index.js";
import { readBalanceText } from "./balance-text.js";
import { AMP_LOGIN } from "./cli-key.js";
import type { AmpBalance } from "./policy-balance.js";

const METHOD = "userDisplayBalanceInfo";
const URL = `https://ampcode.com/api/internal?${METHOD}`;
const SERVICE = "Amp";
const MAX_CODE_CHARS = 80;

const keyRefused = (status?: number) =>
  new QuotabarError("unauthorized", "Amp refused the Amp CLI's API key: sign in again with `amp login`.", {
    ...(status === undefined ? {} : { status }),
    remedies: [AMP_LOGIN],
  });

const REFUSED: StatusRules = { 401: (r) => keyRefused(r.status), 403: (r) => keyRefused(r.status) };

const changedApi = (detail: string) =>
  parseError(`Could not parse Amp balance: ${detail}`, advice("Amp may have changed its API; please report it."));

/**
 * `POST ampcode.com/api/internal` with the Amp CLI's key as a bearer token and the JSON-RPC body
 * `{"method":"userDisplayBalanceInfo","params":{}}`: `{"ok":true,"result":{"displayText":"..."}}`.
 */
export async function readAmpBalance(key: string, { http }: FetchContext): Promise<AmpBalance> {
  const response = await http.request({
    url: URL,
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, Accept: "application/json" },
    json: { method: METHOD, params: {} },
    statusRules: REFUSED,
  });
  const body = parseBoundedJson(response.body, SERVICE);
  if (!isObject(body)) throw changedApi("the answer is not an object.");
  if (body.ok === false) throw answerError(body.error, http);
  const text = isObject(body.result) ? body.result.displayText : undefined;
  if (typeof text !== "string") throw changedApi(`result.displayText is ${text === undefined ? "missing" : "not text"}.`);
  return readBalanceText(text);
}

/** `{"ok":false,"error":{"code":"auth-required"}}` is a refused key; any other code is Amp's own failure, named (redacted then cut). */
function answerError(error: unknown, http: FetchContext["http"]): QuotabarError {
  const code = isObject(error) ? toText(error.code) : null;
  if (code === "auth-required") return keyRefused();
  const named = code === null ? "no error code" : `error ${http.excerpt(code, { maxChars: MAX_CODE_CHARS })}`;
  return new QuotabarError("upstream", `Amp API error: ${named}`, { remedies: [{ kind: "retry" }] });
}
