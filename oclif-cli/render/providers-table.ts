import { accountId } from "../../presentation/account-name.js";
import type { ProviderListing } from "../../domain/usage-service.js";
import type { Style } from "./style.js";

/** `quotabar providers`'s table: id, name, whether credentials were found, whether it is on, how it signs in. */
export function providersTable(rows: readonly ProviderListing[], s: Style): string[] {
  // a named account is listed by the id `-p` takes for it: claude:work
  const idOf = (r: ProviderListing) => accountId(r);
  const idWidth = Math.max(...rows.map((r) => idOf(r).length));
  const nameWidth = Math.max(...rows.map((r) => r.name.length));
  const lines = [s.bold(`${"ID".padEnd(idWidth)}  ${"NAME".padEnd(nameWidth)}  ${"CREDENTIALS".padEnd(11)}  ${"ENABLED".padEnd(7)}  AUTH`)];
  for (const r of rows) {
    const found = !r.supported ? s.dim("not yet") : r.credentialsFound ? s.green("found") : s.dim("none");
    const enabled = r.enabled ? s.green("yes") : s.dim("no");
    lines.push(
      `${idOf(r).padEnd(idWidth)}  ${r.name.padEnd(nameWidth)}  ${pad(found, r.supported ? (r.credentialsFound ? 5 : 4) : 7, 11)}  ${pad(enabled, r.enabled ? 3 : 2, 7)}  ${r.auth.join("; ")}${r.credentialEnv.length ? s.dim(` (${r.credentialEnv.join(", ")})`) : ""}`,
    );
  }
  return lines;
}

/** padEnd that ignores colour codes. */
function pad(text: string, visible: number, width: number): string {
  return text + " ".repeat(Math.max(0, width - visible));
}
