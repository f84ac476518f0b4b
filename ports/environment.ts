/** The process environment as the core sees it: injected, so tests and embedders can supply their own. */
export type Environment = Readonly<Record<string, string | undefined>>;
