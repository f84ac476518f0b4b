import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { FACTORY_SIM } from "../../providers/factory/simulator.js";
import { selfSignedCertificate } from "../helpers/self-signed.js";

const run = promisify(execFile);

/** What app.factory.ai leaves in a browser that signs in: the session cookie, or WorkOS tokens in Local Storage. */
const PAGES: Record<string, { cookies: string[]; script: string }> = {
  "/sign-in": {
    cookies: [
      `wos-session=${FACTORY_SIM.sessionCookie}; Domain=factory.ai; Path=/; Secure; HttpOnly; Max-Age=86400`,
      "theme=dark; Path=/; Max-Age=86400",
    ],
    script: "",
  },
  "/storage": {
    cookies: [],
    script: `localStorage.setItem("workos:refresh-token", ${JSON.stringify(FACTORY_SIM.refreshToken)});
localStorage.setItem("workos:access-token", ${JSON.stringify(FACTORY_SIM.expiredBearer)});`,
  },
};

/**
 * A stand-in for https://app.factory.ai that a real headless Chromium signs in to: a loopback HTTPS
 * server with a throwaway certificate, reached through `--host-resolver-rules`. Each visit leaves a
 * fresh HOME whose ~/.config/chromium holds what the page set.
 */
export async function startFactorySignIn(): Promise<{ visit(path: "/sign-in" | "/storage"): Promise<string>; close(): Promise<void> }> {
  const { key, cert } = selfSignedCertificate();
  const site: Server = createServer({ key, cert }, (request, response) => {
    const page = PAGES[request.url ?? ""];
    response.writeHead(page ? 200 : 404, { "content-type": "text/html; charset=utf-8", "set-cookie": page?.cookies ?? [] });
    response.end(`<!doctype html><title>Factory</title><script>${page?.script ?? ""}</script>`);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const port = (site.address() as AddressInfo).port;
  return {
    async visit(path) {
      const home = mkdtempSync(join(tmpdir(), "quotabar-factory-chromium-"));
      await run(
        "chromium",
        [
          "--headless=new",
          "--no-sandbox",
          "--disable-gpu",
          "--no-first-run",
          "--password-store=basic",
          `--user-data-dir=${join(home, ".config", "chromium")}`,
          `--host-resolver-rules=MAP app.factory.ai:443 127.0.0.1:${port}`,
          "--ignore-certificate-errors",
          "--virtual-time-budget=3000",
          "--dump-dom",
          `https://app.factory.ai${path}`,
        ],
        { timeout: 90_000 },
      );
      return home;
    },
    close: () => new Promise<void>((resolve) => site.close(() => resolve())),
  };
}
