import { isObject, joinPath, readTextIfPresent, toText, tryJson, valueAt } from "../kit/index.js";

/**
 * The auth type the Gemini CLI is set to (`~/.gemini/settings.json`, `security.auth.selectedType`;
 * `selectedAuthType` at the root before the V2 settings). Absent, or a file that cannot be read:
 * null, and the OAuth sign-in is tried as the CLI itself would find it.
 */
export async function selectedAuthType(dir: string): Promise<string | null> {
  const text = await readTextIfPresent(joinPath(dir, "settings.json")).catch(() => null);
  if (text === null) return null;
  const settings = tryJson(text) ?? tryJson(withoutComments(text));
  if (!isObject(settings)) return null;
  return toText(valueAt(settings, "security.auth.selectedType")) ?? toText(settings.selectedAuthType);
}

/** Sign-ins Google keeps no quota for that quotabar could read, with what to tell their user. */
export const NO_QUOTA_AUTH: Readonly<Record<string, string>> = {
  "gemini-api-key": "an API key",
  "api-key": "an API key",
  "vertex-ai": "Vertex AI",
};

/**
 * The CLI reads its settings as JSON with comments: `//` and `/* *\/` comments dropped, strings
 * (which may hold `//`, as URLs do) left whole. One pass, linear.
 */
export function withoutComments(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    if (char === '"') {
      const start = i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      out += text.slice(start, ++i);
    } else if (char === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (char === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 2;
    } else {
      out += char;
      i++;
    }
  }
  return out;
}
