/** The 17 stable provider ids (CodexBar-compatible, so one config file can serve both). */
export const PROVIDER_IDS = [
  "copilot",
  "zai",
  "kimi",
  "kilo",
  "kimik2",
  "kiro",
  "vertexai",
  "augment",
  "amp",
  "jetbrains",
  "openrouter",
  "antigravity",
  "factory",
  "opencode",
  "warp",
  "ollama",
  "minimax",
] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

export const isProviderId = (value: string): value is ProviderId => (PROVIDER_IDS as readonly string[]).includes(value);

/** Where an answer came from; the document's `source` field. */
export type SourceKind = "api" | "cli" | "web" | "oauth" | "local";

export type StatusSource =
  | { kind: "polled"; feed: "statuspage"; url: string }
  | { kind: "polled"; feed: "google-workspace"; url: string; productId: string }
  | { kind: "link"; url: string }
  | { kind: "none" };

/** A provider as data: everything the views and the runner need to know without calling it. */
export interface ProviderDescriptor {
  id: ProviderId;
  /** Display name. */
  name: string;
  /** The spec's letter for this provider (seed.md uses letters instead of vendor names). */
  specLetter: string;
  /** How it authenticates, in the order the spec gives. */
  auth: readonly string[];
  dashboardUrl: string;
  status: StatusSource;
  /** Fetch strategies in the order they are tried. */
  strategies: readonly SourceKind[];
  /** Enabled automatically when its credentials are detected (never for unofficial relays). */
  enabledByDefault: boolean;
  /** Unofficial relays are labelled as such in lists. */
  unofficial?: boolean;
  /** Environment variables that carry its credential, first one preferred. */
  credentialEnv: readonly string[];
}

/** The URL a "View Status" action opens. */
export function statusPageUrl(descriptor: ProviderDescriptor): string | null {
  return descriptor.status.kind === "none" ? null : descriptor.status.url;
}
