import { plainRemedyText, type Remedy } from "../domain/remedy.js";

/** Remedies in the words of the command line (and the library, which ships with it). */
export function cliRemedyText(remedy: Remedy): string {
  const orEnv = (names: readonly string[] | undefined) => (names && names.length > 0 ? `, or export ${names.join(" or ")}` : "");
  switch (remedy.kind) {
    case "set-key":
      return `Run \`quotabar config set-key ${remedy.provider} --stdin\` to store the key${orEnv(remedy.env)}.`;
    case "set-cookie":
      return `Paste a Cookie header (or a "Copy as cURL" command)${remedy.from ? ` from ${remedy.from}` : ""} into providers[${remedy.provider}].cookieHeader in the config file${orEnv(remedy.env)}.`;
    case "set-config":
      return `Set providers[${remedy.provider}].${remedy.field}${remedy.example ? ` (e.g. ${remedy.example})` : ""} in the config file${orEnv(remedy.env)}.`;
    case "login":
      return `Run \`quotabar login ${remedy.provider}\`.`;
    case "browser-sign-in":
    case "install":
    case "advice":
      return plainRemedyText(remedy);
    case "retry":
      return remedy.afterSeconds !== undefined
        ? `Retry in ${remedy.afterSeconds} s.`
        : `Retry later${remedy.url ? ` (${remedy.url})` : ""}.`;
    case "raise-timeout":
      return "Raise --timeout (config timeoutSeconds).";
  }
}

/** The document's one-line `hint`: every remedy, in order; neighbouring config fields of one entry in one sentence. */
export function writeCliRemedies(remedies: readonly Remedy[]): string | null {
  const sentences: string[] = [];
  for (let i = 0; i < remedies.length; i++) {
    const remedy = remedies[i] as Remedy;
    const fields: string[] = [];
    for (let j = i; remedy.kind === "set-config" && j < remedies.length; j++) {
      const next = remedies[j] as Remedy;
      if (next.kind !== "set-config" || next.provider !== remedy.provider || next.env?.length || next.example) break;
      fields.push(next.field);
    }
    if (fields.length > 1 && remedy.kind === "set-config") {
      sentences.push(`Set ${fields.map((f) => `providers[${remedy.provider}].${f}`).join(", ")} in the config file.`);
      i += fields.length - 1;
    } else sentences.push(cliRemedyText(remedy));
  }
  return sentences.length === 0 ? null : sentences.join(" ");
}
