import {
  machineWide,
  cleanSecret,
  homeOf,
  hostDevice,
  joinPath,
  readTextIfPresent,
  toNumber,
  tryJson,
  valueAt,
  type CredentialContext,
  type CredentialSource,
} from "../kit/index.js";
import type { Environment } from "../../ports/environment.js";
import { USER_AGENT, VERSION } from "../../domain/version.js";

/** A token that expires sooner than this is left to the CLI to refresh; quotabar never refreshes it. */
const EXPIRY_MARGIN_MS = 60_000;

/** The Kimi Code CLI's access token, and the device id it registered with. */
export interface KimiCliSession {
  token: string;
  deviceId: string | null;
}

/** The CLI's home: $KIMI_CODE_HOME, else ~/.kimi-code. */
export const kimiCodeHome = (env: Environment): string => cleanSecret(env.KIMI_CODE_HOME) ?? joinPath(homeOf(env), ".kimi-code");
export const kimiCliCredentialsFile = (env: Environment): string => joinPath(kimiCodeHome(env), "credentials", "kimi-code.json");

/** A file that cannot be read counts as absent here: the next route (the web cookie) still gets its turn. */
const readQuietly = (path: string) => readTextIfPresent(path).catch(() => null);

/**
 * `credentials/kimi-code.json` of the Kimi Code CLI: `access_token`, `refresh_token`, `expires_at`
 * (epoch seconds). Used only while it is valid for more than a minute.
 */
export const kimiCliSession: CredentialSource<KimiCliSession> = machineWide({
  async resolve(context: CredentialContext) {
    const text = await readQuietly(kimiCliCredentialsFile(context.env));
    const file = text === null ? null : tryJson(text);
    const token = cleanSecret(valueAt(file, "access_token"));
    if (token === null) return null;
    const expiresAt = toNumber(valueAt(file, "expires_at"));
    // no expiry in the file: let the API judge the token
    if (expiresAt !== null && expiresAt * 1000 <= context.now().getTime() + EXPIRY_MARGIN_MS) return null;
    const deviceId = await readQuietly(joinPath(kimiCodeHome(context.env), "device_id"));
    return { token, deviceId: cleanSecret(deviceId) };
  },
});

/** Printable ASCII only, so a host name can never break a header. */
const ascii = (text: string) => text.replace(/[^\x20-\x7e]/g, "").trim() || "unknown";

/** The identity headers the Kimi Code CLI sends with its token. */
export function kimiCliHeaders(session: KimiCliSession): Record<string, string> {
  const device = hostDevice();
  const headers: Record<string, string> = {
    "User-Agent": USER_AGENT,
    "X-Msh-Platform": "kimi_code_cli",
    "X-Msh-Version": VERSION,
    "X-Msh-Device-Name": ascii(device.name),
    "X-Msh-Device-Model": ascii(`${device.os} ${device.release} ${device.arch}`),
    "X-Msh-Os-Version": ascii(device.release),
  };
  if (session.deviceId) headers["X-Msh-Device-Id"] = ascii(session.deviceId);
  return headers;
}
