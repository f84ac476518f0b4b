import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startServe, type ServeHandle } from "../../oclif-cli/serve/start-serve.js";
import { useSimulator } from "../helpers/harness.js";
import { httpGet } from "../helpers/http-get.js";

/**
 * `quotabar serve` under clients that open a connection and never finish the request (a slowloris):
 * each is ended within seconds, not after Node's 30 s check, and /healthz answers meanwhile.
 */

const sim = useSimulator();
const running: ServeHandle[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((handle) => handle.stop()));
});

/** A connection that sends half a request head and waits; resolves with what the server wrote before closing it. */
function halfSent(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}\r\n`));
    let answer = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => (answer += chunk));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("quotabar serve and half-sent requests", () => {
  // Node's headers check runs every 30 s: before the limits were lowered this waited past the test's 20 s
  it("ends a connection whose request head never arrives, and answers /healthz meanwhile", { timeout: 20_000 }, async () => {
    const handle = await startServe({
      env: sim.env(),
      host: "127.0.0.1",
      port: 0,
      intervalMs: 3_600_000,
      token: null,
      providers: ["openrouter"],
      log: () => undefined,
    });
    running.push(handle);
    const stalled = Array.from({ length: 50 }, () => halfSent(handle.url));
    expect((await httpGet(`${handle.url}/healthz`)).status).toBe(200);
    const answers = await Promise.all(stalled);
    for (const answer of answers) expect(answer === "" || answer.startsWith("HTTP/1.1 408")).toBe(true);
  });
});
