/** Where an answer came from; the document's `source` field. */
export type SourceKind = "api" | "cli" | "web" | "oauth" | "local";

export type StatusSource =
  | {
      kind: "polled";
      feed: "statuspage";
      url: string;
      /**
       * The components (or component groups) of the page that speak for this provider, by name
       * (case-insensitive): their statuses decide its indicator. Absent: the whole page does.
       */
      components?: readonly string[];
    }
  | { kind: "polled"; feed: "google-workspace"; url: string; productId: string }
  | { kind: "link"; url: string }
  | { kind: "none" };

/** A field a user fills in to set the provider up (a Raycast preference; `config set-key` for keys). */
export type ProviderSetting =
  | { field: "apiKey" | "cookieHeader"; title: string; description: string; placeholder?: string }
  | { field: "region"; title: string; description: string; options: readonly { title: string; value: string }[]; default: string };

/** A provider as data: everything the views and the runner need to know without calling it. */
export interface ProviderDescriptor {
  /** Stable id (CodexBar-compatible, so one config file can serve both). */
  id: string;
  /** Display name. */
  name: string;
  /** How it authenticates, in the order the spec gives. */
  auth: readonly string[];
  dashboardUrl: string;
  status: StatusSource;
  /** Enabled automatically when its credentials are detected (never for unofficial relays). */
  enabledByDefault: boolean;
  /** Unofficial relays are labelled as such in lists. */
  unofficial?: boolean;
  /** Environment variables that carry its credential, first one preferred. */
  credentialEnv: readonly string[];
  /** What a user can fill in, in the order a settings screen shows it. */
  settings?: readonly ProviderSetting[];
  /** It has a sign-in flow (`quotabar login <id>`, Raycast's sign-in command). */
  signIn?: { title: string };
  /** Its web session is kept alive between fetches (ProviderModule.keepalive): `refresh-session`, Raycast's Refresh Session. */
  keepsSession?: boolean;
}

/** A descriptor states only what sets it apart: no status page, on when found, no env credential by default. */
export function describeProvider(
  fields: Omit<ProviderDescriptor, "status" | "enabledByDefault" | "credentialEnv"> & Partial<ProviderDescriptor>,
): ProviderDescriptor {
  return { status: { kind: "none" }, enabledByDefault: true, credentialEnv: [], ...fields };
}

/** The URL a "View Status" action opens. */
export function statusPageUrl(descriptor: ProviderDescriptor): string | null {
  return descriptor.status.kind === "none" ? null : descriptor.status.url;
}
