import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Recorded {
  method: string;
  /** The Host header the request came with (`127.0.0.1:PORT`, `localhost:PORT`). */
  host: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RecordingServer {
  /** `http://127.0.0.1:PORT` */
  base: string;
  port: number;
  seen: Recorded[];
  /** How the next requests are answered (a 200 with `{}` unless told). */
  answer: (request: Recorded, response: ServerResponse) => void;
  close(): Promise<void>;
}

/** A loopback HTTP server that records every request, whole, and answers as the test says. */
export async function recordingServer(): Promise<RecordingServer> {
  const state: RecordingServer = {
    base: "",
    port: 0,
    seen: [],
    answer: (_request, response) => response.writeHead(200, { "content-type": "application/json" }).end("{}"),
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = {
        method: req.method ?? "",
        host: req.headers.host ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      state.seen.push(request);
      state.answer(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.port = (server.address() as AddressInfo).port;
  state.base = `http://127.0.0.1:${state.port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** Everything a request carried, as one text to search for a secret in. */
export const carried = (request: Recorded): string =>
  [request.url, decodeURIComponent(request.url), JSON.stringify(request.headers), request.body].join("\n");
