import { notConfigured } from "../../domain/errors.js";
import { isLoopback } from "../../domain/loopback.js";
import { advice } from "../../domain/remedy.js";

/**
 * A user-supplied URL override (env or config). A bare host gets https://. Plain http is refused
 * except on loopback, so an override can never send a token over the network unencrypted.
 */
export function overrideUrl(value: string, variable: string): URL {
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw notConfigured(`${variable} is not a valid URL`, advice(`Fix or unset ${variable}.`));
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url))) {
    throw notConfigured(`${variable} must be an https URL (plain http only on loopback)`, advice(`Fix or unset ${variable}.`));
  }
  return url;
}
