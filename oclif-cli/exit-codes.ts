/** Exit codes of every command: 0 done, 1 printed but a provider failed, 2 usage error, 3 internal error. */
export const EXIT = { ok: 0, providerFailed: 1, usage: 2, internal: 3 } as const;
