/**
 * What a user can do about an error, as data. Each driver (CLI, Raycast, library) words it in its
 * own terms: the CLI names `quotabar config set-key`, Raycast names its preference fields.
 */
export type Remedy =
  /** Store the provider's API key or token (config `apiKey`), or export one of these variables. */
  | { kind: "set-key"; provider: string; env: readonly string[] }
  /** Paste a Cookie header (config `cookieHeader`, or one of these variables), copied from `from`. */
  | { kind: "set-cookie"; provider: string; env: readonly string[]; from?: string }
  /** Set a config field of the provider's entry (e.g. `region`), or one of these variables. */
  | { kind: "set-config"; provider: string; field: string; env?: readonly string[]; example?: string }
  /** Run the provider's sign-in flow (the Copilot device flow). */
  | { kind: "login"; provider: string }
  /** Sign in to the service in a browser. */
  | { kind: "browser-sign-in"; url: string }
  /** Install a tool (a vendor CLI), then sign in with it. */
  | { kind: "install"; tool: string; command?: string; url?: string }
  /** Try again, after this many seconds when the upstream said so. */
  | { kind: "retry"; afterSeconds?: number; url?: string }
  /** Give providers more time (`--timeout`, config `timeoutSeconds`). */
  | { kind: "raise-timeout" }
  /** A sentence that holds in every driver ("The account may have no active Coding Plan."). */
  | { kind: "advice"; text: string };

/** Turns remedies into the one-line `hint` of the usage document, in a driver's words. */
export type RemedyWriter = (remedies: readonly Remedy[]) => string | null;

export const advice = (text: string): Remedy => ({ kind: "advice", text });

/** The remedies every driver words alike (they name no command, field or preference). */
export type PlainRemedy = Extract<Remedy, { kind: "browser-sign-in" | "install" | "advice" }>;

export function plainRemedyText(remedy: PlainRemedy): string {
  if (remedy.kind === "advice") return remedy.text;
  if (remedy.kind === "browser-sign-in") return `Sign in at ${remedy.url} in your browser.`;
  return `Install ${remedy.tool}${remedy.url ? ` (${remedy.url})` : ""}${remedy.command ? ` and run \`${remedy.command}\`` : ""}.`;
}
