/** Injection tokens, one per port (tsyringe; always used with an explicit @inject). */
export const TOKENS = {
  Clock: Symbol.for("quotabar.Clock"),
  Environment: Symbol.for("quotabar.Environment"),
  ConfigStore: Symbol.for("quotabar.ConfigStore"),
  SnapshotCache: Symbol.for("quotabar.SnapshotCache"),
  HttpClient: Symbol.for("quotabar.HttpClient"),
  ProviderRegistry: Symbol.for("quotabar.ProviderRegistry"),
  StatusService: Symbol.for("quotabar.StatusService"),
  StatusFeed: Symbol.for("quotabar.StatusFeed"),
  StatusCache: Symbol.for("quotabar.StatusCache"),
  SecretStore: Symbol.for("quotabar.SecretStore"),
  ProcessRunner: Symbol.for("quotabar.ProcessRunner"),
  UsageService: Symbol.for("quotabar.UsageService"),
} as const;
