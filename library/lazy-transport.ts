import type { OriginMap } from "../adapters/http/origin-map.js";
import type { HttpTransport } from "../ports/http-client.js";

/**
 * The got transport, loaded with got on the first request: a core that never goes to the network
 * (`quotabar providers`, `config ...`, a library that only lists providers) never loads an HTTP client.
 */
export function lazyGotTransport(originMap: OriginMap): HttpTransport {
  let transport: Promise<HttpTransport> | undefined;
  return {
    async send(request) {
      transport ??= import("../adapters/http/got-http-transport.js").then(({ GotHttpTransport }) => new GotHttpTransport(originMap));
      return (await transport).send(request);
    },
  };
}
