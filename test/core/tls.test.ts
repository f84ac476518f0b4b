import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GotHttpTransport } from "../../adapters/http/got-http-transport.js";
import { parseOriginMap, type OriginMap } from "../../adapters/http/origin-map.js";
import { selfSignedCertificate } from "../helpers/self-signed.js";

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer(selfSignedCertificate(), (_req, res) => res.end("local"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const send = (url: string, extra: { selfSignedLoopback?: true } = {}, originMap: OriginMap = new Map()) =>
  new GotHttpTransport(originMap).send({ url, service: "Local", secrets: [], timeoutMs: 5_000, ...extra }).catch((error: unknown) => error);

describe("TLS", () => {
  it("verifies certificates: a self-signed one is refused with a clear network error", async () => {
    const error = await send(`https://127.0.0.1:${port}/`);
    expect(error).toMatchObject({ code: "network" });
    expect((error as Error).message).toMatch(/TLS certificate check failed for 127\.0\.0\.1/);
  });

  it("accepts a self-signed certificate only from 127.0.0.1, only when the request asks for it", async () => {
    expect(await send(`https://127.0.0.1:${port}/`, { selfSignedLoopback: true })).toMatchObject({ status: 200, body: "local" });
    // the same request sent elsewhere (here: localhost, through the origin map) is verified again
    const mapped = parseOriginMap(JSON.stringify({ "https://upstream.example": `https://localhost:${port}` }));
    const error = await send("https://upstream.example/", { selfSignedLoopback: true }, mapped);
    expect(error).toMatchObject({ code: "network" });
    const toLoopback = parseOriginMap(JSON.stringify({ "https://upstream.example": `https://127.0.0.1:${port}` }));
    expect(await send("https://upstream.example/", { selfSignedLoopback: true }, toLoopback)).toMatchObject({ status: 200 });
  });
});
