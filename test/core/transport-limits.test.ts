import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GotHttpTransport } from "../../adapters/http/got-http-transport.js";
import { parseOriginMap } from "../../adapters/http/origin-map.js";

const BOMB = gzipSync(Buffer.alloc(64 * 1024 * 1024)); // 64 MB of zeros, about 64 KB on the wire
let server: Server;
let transport: GotHttpTransport;
const arrived: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    arrived.push(req.url ?? "");
    if (req.url === "/bomb") return res.writeHead(200, { "content-encoding": "gzip", "content-type": "application/json" }).end(BOMB);
    if (req.url === "/to-http") return res.writeHead(302, { location: "http://203.0.113.9/steal" }).end();
    if (req.url === "/to-other-host") return res.writeHead(307, { location: "https://elsewhere.example/steal" }).end();
    if (req.url === "/same-host") return res.writeHead(302, { location: "/final" }).end();
    res.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  transport = new GotHttpTransport(parseOriginMap(JSON.stringify({ "https://api.example.com": base })));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const send = (path: string, headers: Record<string, string> = {}) =>
  transport
    .send({ url: `https://api.example.com${path}`, headers, service: "Example", secrets: [], timeoutMs: 10_000 })
    .catch((e: unknown) => e);

describe("transport limits", () => {
  it("cuts off a decompression bomb and says the response was too large", async () => {
    const error = await send("/bomb");
    expect(error).toMatchObject({ code: "upstream", message: "Example sent a response too large to read (over 4 MB)" });
  });

  it("refuses a redirect that leaves https, so credentials are never resent in clear", async () => {
    const error = await send("/to-http", { Authorization: "Bearer secret-token-123456" });
    expect(error).toMatchObject({ code: "network" });
    expect((error as Error).message).toContain("refused a redirect from");
    expect((error as Error).message).not.toContain("secret-token");
  });

  it("refuses to carry Authorization or Cookie to another host", async () => {
    for (const headers of [{ Authorization: "token x" }, { Cookie: "session=x" }] as Record<string, string>[]) {
      const error = await send("/to-other-host", headers);
      expect((error as Error).message).toContain("refused to send credentials on a redirect");
    }
  });

  it("still follows a same-host redirect", async () => {
    expect(await send("/same-host", { Authorization: "token x" })).toMatchObject({ status: 200, body: "ok" });
  });
});
