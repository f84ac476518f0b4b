import nock from "nock";

/**
 * Set up once for every test file (vitest `setupFiles`): no test can reach a real host. Only
 * loopback is allowed (the simulator, local listeners); a wire test may still pin an exact
 * request with nock interceptors. Nor a real keychain: every core built in a test process caches
 * cookie headers in memory (a test that wants an OS secret store uses a private one, on its own
 * D-Bus session, and says so in the environment of the CLI it runs).
 */
nock.disableNetConnect();
nock.enableNetConnect((host) => /^(127\.\d+\.\d+\.\d+|localhost|\[::1\]|::1)(:\d+)?$/.test(host));
process.env.QUOTABAR_SECRET_STORE ??= "memory";
