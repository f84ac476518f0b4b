import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback site the real browsers visit (credentials.md section 10.2): `GET /set` answers with the
 * cookies the tests look for. Chromium reaches it under *.example.test (`--host-resolver-rules`
 * maps them to 127.0.0.1); Firefox under *.example.localhost, which it resolves to loopback itself,
 * so a profile it creates on first start needs no pref.
 */
export function setCookies(domain: string): string[] {
  return [
    // host-only, persistent, HttpOnly
    "session=sess_value_123; Path=/; HttpOnly; Max-Age=86400",
    // a domain cookie: sent to the site and every subdomain
    `domain_cookie=dom_val; Domain=${domain}; Path=/; Max-Age=3600`,
    // a session cookie: no expiry
    "session_only=no_expiry; Path=/",
    "utf8_cookie=caf%C3%A9; Path=/; Max-Age=600",
  ];
}

export interface CookieSite {
  port: number;
  url(host: string, path?: string): string;
  /** Requests seen, as "host path". */
  requests: string[];
  close(): Promise<void>;
}

/** The site a host belongs to: its last two labels (example.test, example.localhost). */
const siteOf = (host: string) => host.replace(/:\d+$/, "").split(".").slice(-2).join(".");

export async function startCookieSite(): Promise<CookieSite> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(`${request.headers.host ?? ""} ${request.url ?? ""}`);
    if (request.url?.startsWith("/set")) {
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Set-Cookie": setCookies(siteOf(request.headers.host ?? "")) });
      response.end("<!doctype html><html><head><title>cookies set</title></head><body><p>cookies set</p></body></html>");
      return;
    }
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end("<!doctype html><html><body><p>ok</p></body></html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    requests,
    url: (host, path = "/set") => `http://${host}:${port}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
