import { describe, expect, it } from "vitest";
import { GotHttpTransport } from "../../adapters/http/got-http-transport.js";

describe("network guard", () => {
  it("refuses any host that is not loopback, for every test file", async () => {
    const transport = new GotHttpTransport(new Map());
    const error = await transport.send({ url: "https://example.com/", service: "Example", secrets: [] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "network" });
    expect(String((error as Error).message)).toMatch(/Nock: Disallowed net connect|disallowed/i);
  });
});
