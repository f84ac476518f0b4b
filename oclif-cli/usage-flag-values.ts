/** What `--source` takes (the usage, demo and watch commands, and bin/run.cjs's plain reading of them). */
export const SOURCE_MODES = ["auto", "api", "cli", "web", "oauth", "local"] as const;

/** The seconds `--timeout` takes. */
export const TIMEOUT_SECONDS = { min: 1, max: 600 } as const;
