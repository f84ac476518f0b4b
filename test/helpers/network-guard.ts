import nock from "nock";

/**
 * Set up once for every test file (vitest `setupFiles`): no test can reach a real host. Only
 * loopback is allowed (the simulator, local listeners); a wire test may still pin an exact
 * request with nock interceptors.
 */
nock.disableNetConnect();
nock.enableNetConnect((host) => /^(127\.\d+\.\d+\.\d+|localhost|\[::1\]|::1)(:\d+)?$/.test(host));
