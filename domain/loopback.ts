const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/i;

/** This machine only: the one place plain http (and the simulator) is allowed. */
export function isLoopback(url: URL): boolean {
  return LOOPBACK.test(url.hostname);
}
