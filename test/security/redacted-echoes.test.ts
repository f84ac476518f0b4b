import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GotHttpTransport } from "../../adapters/http/got-http-transport.js";
import { redact, redactedExcerpt } from "../../domain/redact.js";
import { publicPrefixLength } from "../../domain/secret-runs.js";
import { scopedHttp } from "../../domain/scoped-http.js";
import { createQuotabar } from "../../index.js";
import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { connectCall, UNLEASH_BODY } from "../../providers/antigravity/connect.js";
import { readQuota } from "../../providers/antigravity/quota.js";
import { cliFailed } from "../../providers/kiro/errors.js";
import { ProviderSimulator } from "../../simulator/server.js";
import { simulatedUpstreams } from "../../simulator/upstreams.js";
import { runCli } from "../helpers/cli.js";
import { filesUnder, simulatedSecrets } from "../helpers/leaks.js";
import { recordingServer } from "../helpers/recording-server.js";

/**
 * An upstream (or a proxy in its place) that quotes the request's credential back in its error,
 * after 120 to 290 characters of padding, in another letter case, or only in part (its first 60 %,
 * its last 10 characters): no 8 consecutive characters of any secret are printed (JSON, text,
 * stderr) or kept in the cache, for any provider. Redaction runs before any cut, whoever cuts.
 */

const MIN_RUN = 8;
const PADDING = "lorem ipsum dolor sit amet, consectetur adipiscing elit; ";
const pad = (length: number) => PADDING.repeat(Math.ceil(length / PADDING.length)).slice(0, length);

type Variant = "upper" | "prefix" | "suffix";
const VARIANTS: Record<Variant, (secret: string) => string> = {
  upper: (secret) => secret.toUpperCase(),
  prefix: (secret) => secret.slice(0, Math.ceil(secret.length * 0.6)),
  suffix: (secret) => secret.slice(-10),
};

/** Where the echo sits: behind `padding` characters, its variants in this order (so each in turn straddles a 200-character cut). */
interface Echo {
  padding: number;
  order: Variant[];
  status: number;
  shape: "object" | "string" | "html";
}

const ARRANGEMENTS: Pick<Echo, "padding" | "order">[] = [
  { padding: 120, order: ["upper", "prefix", "suffix"] },
  { padding: 171, order: ["prefix", "upper", "suffix"] },
  { padding: 195, order: ["suffix", "upper", "prefix"] },
  { padding: 290, order: ["upper", "suffix", "prefix"] },
];
const ECHOES: Echo[] = [200, 400].flatMap((status) =>
  (["object", "string", "html"] as const).flatMap((shape) => ARRANGEMENTS.map((a) => ({ ...a, status, shape }))),
);

let upstreams: SimulatedUpstream[];
let secrets: string[];
let sim: ProviderSimulator;
let home: string;
let echo: Echo | null = null;

/** The longest known secret the request carries (a header, the body, the query). */
function secretIn(request: SimRequest): string | null {
  const text = [JSON.stringify(request.headers), request.body, [...request.query.values()].join("\n")].join("\n");
  return secrets.filter((secret) => text.includes(secret)).sort((a, b) => b.length - a.length)[0] ?? null;
}

/** The error an upstream answers with, quoting the secret behind padding in every field an error is usually read from. */
function echoReply(request: SimRequest, { padding, order, status, shape }: Echo): SimReply {
  const secret = secretIn(request) ?? "no-credential-in-this-request";
  const said = `${pad(padding)}${order.map((v) => VARIANTS[v](secret)).join(" ")} end.`;
  if (shape === "html") {
    const page = `<!doctype html><html><head><title>${said}</title></head><body><h1>${said}</h1><p>${said}</p></body></html>`;
    return { status, body: page, headers: { "content-type": "text/html" } };
  }
  const error = shape === "object" ? { message: said, code: said, msg: said } : said;
  return {
    status,
    json: {
      ok: false,
      success: false,
      message: said,
      msg: said,
      detail: said,
      error,
      error_description: said,
      errors: [{ message: said }],
      base_resp: { status_code: 1001, status_msg: said },
    },
  };
}

/** Google's token endpoint answers as itself for Vertex AI and Gemini CLI (the minted token is then a secret of the fetch); every other route echoes. */
const echoing = (upstream: SimulatedUpstream): SimulatedUpstream => ({
  ...upstream,
  routes: upstream.routes.map((route) => ({
    ...route,
    handle: (request, scenario) =>
      echo === null || ((upstream.id === "vertexai" || upstream.id === "gemini") && request.path === "/token")
        ? route.handle(request, scenario)
        : echoReply(request, echo),
  })),
});

/** The first run of MIN_RUN characters of each secret found in the text, in any letter case. */
function leaks(text: string): string[] {
  const lower = text.toLowerCase();
  const found: string[] = [];
  for (const secret of secrets) {
    for (let i = firstRun(secret); i + MIN_RUN <= secret.length; i++) {
      const run = secret.slice(i, i + MIN_RUN).toLowerCase();
      if (lower.includes(run)) {
        found.push(`${run} (of ${secret.slice(0, 6)}...)`);
        break;
      }
    }
  }
  return found;
}

beforeAll(async () => {
  upstreams = await simulatedUpstreams();
  secrets = simulatedSecrets(upstreams);
  sim = await ProviderSimulator.start({ providers: upstreams.map(echoing) });
  home = mkdtempSync(join(tmpdir(), "quotabar-echoes-"));
  await sim.seedHome(home);
});
afterAll(async () => {
  await sim.stop();
  rmSync(home, { recursive: true, force: true });
});

const env = () => ({ ...sim.env(), HOME: home, XDG_CONFIG_HOME: undefined, XDG_CACHE_HOME: undefined, QUOTABAR_SECRET_STORE: "memory" });
const ids = () => sim.providers.filter((p) => !p.id.startsWith("status-")).map((p) => p.id);
const label = (e: Echo) => `HTTP ${e.status}, ${e.shape}, ${e.padding} characters in, ${e.order.join(" ")}`;

describe("an upstream quoting the credential back, behind padding, in another case, in part", () => {
  it("has secrets to look for, and the echoes reach the messages", async () => {
    expect(secrets.length).toBeGreaterThan(15);
    const quoting = new Set<string>();
    for (const status of [400, 200]) {
      for (const shape of ["object", "string"] as const) {
        echo = { padding: 120, order: ["upper", "prefix", "suffix"], status, shape };
        const doc = await createQuotabar({ env: env() }).usage({ providers: ids(), timeoutMs: 15_000 });
        echo = null;
        for (const p of doc.providers) if (p.error?.message.includes("lorem ipsum")) quoting.add(p.id);
      }
    }
    // the providers that quote an upstream's words in their errors (the others word every failure themselves)
    expect([...quoting].sort()).toEqual([
      "augment",
      "copilot",
      "factory",
      "gemini",
      "kilo",
      "kimik2",
      "minimax",
      "opencode",
      "vertexai",
      "warp",
    ]);
  });

  it.each(ECHOES.map((e) => [label(e), e] as const))("prints no 8 characters of a secret, nor caches them (%s)", async (_label, e) => {
    echo = e;
    try {
      const doc = await createQuotabar({ env: env() }).usage({ providers: ids(), timeoutMs: 15_000 });
      expect(doc.providers).toHaveLength(ids().length);
      expect(leaks([JSON.stringify(doc), ...filesUnder(join(home, ".cache"))].join("\n"))).toEqual([]);
    } finally {
      echo = null;
    }
  });

  it("prints none in the CLI's JSON and text, nor on stderr", { timeout: 120_000 }, async () => {
    for (const e of [ECHOES[1]!, ECHOES.at(-3)!]) {
      echo = e;
      try {
        const args = ids().flatMap((id) => ["-p", id]);
        const runs = await Promise.all([runCli(["--json", ...args], env()), runCli(["--no-color", ...args], env())]);
        expect(JSON.parse(runs[0]!.stdout).providers).toHaveLength(ids().length);
        expect(runs[1]!.stdout).toContain("lorem ipsum");
        const printed = [...runs.flatMap((r) => [r.stdout, r.stderr]), ...filesUnder(join(home, ".cache"))].join("\n");
        expect(leaks(printed), label(e)).toEqual([]);
      } finally {
        echo = null;
      }
    }
  });
});

describe("Antigravity's language server quoting its CSRF token", () => {
  const csrfToken = "5f7d3a1e-8b2c-4d6e-9f0a-1b2c3d4e5f60";

  it("is redacted before the body is cut, in any case and in part", async () => {
    const server = await recordingServer();
    try {
      const http = scopedHttp(new GotHttpTransport(new Map()), {
        service: "Antigravity",
        signal: new AbortController().signal,
        deadline: Date.now() + 10_000,
        budgetMs: 10_000,
        secrets: [csrfToken],
      });
      for (const { padding, order } of ARRANGEMENTS) {
        const said = `${pad(padding)}${order.map((v) => VARIANTS[v](csrfToken)).join(" ")}`;
        server.answer = (_request, response) => response.writeHead(500).end(said);
        const error = await connectCall(http, { scheme: "http", port: server.port, csrfToken }, "GetUnleashData", UNLEASH_BODY).catch(
          (e: Error) => e,
        );
        expect(error).toMatchObject({ code: "upstream", message: expect.stringContaining("lorem ipsum") });
        expect(runsOf(csrfToken, (error as Error).message)).toEqual([]);
        const refused = (() => {
          try {
            return readQuota("GetUserStatus", JSON.stringify({ code: "failed_precondition", message: said }), http.excerpt);
          } catch (thrown) {
            return thrown as Error;
          }
        })();
        expect(runsOf(csrfToken, (refused as Error).message)).toEqual([]);
      }
    } finally {
      await server.close();
    }
  });
});

/** Where a secret's runs start: one made only of the prefix every key of its kind shares (`sk-or-v1-`) is no secret. */
const firstRun = (secret: string) => Math.max(0, publicPrefixLength(secret) - MIN_RUN + 1);

/** The runs of MIN_RUN characters of `secret` that `text` holds, in any case. */
function runsOf(secret: string, text: string): string[] {
  const lower = text.toLowerCase();
  const runs: string[] = [];
  for (let i = firstRun(secret); i + MIN_RUN <= secret.length; i++) {
    const run = secret.slice(i, i + MIN_RUN).toLowerCase();
    if (lower.includes(run)) runs.push(run);
  }
  return runs;
}

describe("redact", () => {
  const secret = "kx7-Q2vB9rTm4Lp8Zs1Wd6Yh3Nc5Fj0G";

  it("hides a known secret in any letter case, and any 8 consecutive characters of it", () => {
    expect(redact(`key ${secret.toUpperCase()} refused`, [secret])).toBe("key *** refused");
    expect(redact(`key ${secret.toLowerCase()} refused`, [secret])).toBe("key *** refused");
    expect(redact(`starts ${secret.slice(0, 19)}, ends ${secret.slice(-10)}, middle ${secret.slice(9, 17)}.`, [secret])).toBe(
      "starts ***, ends ***, middle ***.",
    );
    // 7 characters are not a run: ordinary text that happens to share them stays
    expect(redact(`id ${secret.slice(3, 10)} kept`, [secret])).toBe(`id ${secret.slice(3, 10)} kept`);
    // a redirect host lower-cased by the URL parser
    expect(redact(`to https://${secret.toLowerCase()}.example/`, [secret])).toBe("to https://***.example/");
  });

  it("keeps the prefix every key of a kind shares, as advice writes it, and hides what follows", () => {
    const key = "sk-or-v1-9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c";
    expect(redact("OpenRouter keys start with sk-or-v1- and are made at openrouter.ai", [key])).toBe(
      "OpenRouter keys start with sk-or-v1- and are made at openrouter.ai",
    );
    expect(redact(`refused ${key.slice(0, 14)}`, [key])).toBe("refused sk***");
  });

  it("hides a whole cookie header or a file path only whole, so a message keeps the words they share", () => {
    const header = "theme=dark; session=Zq81mXc0Pv7Lw3Ns";
    expect(redact("the session cookie expired", [header])).toBe("the session cookie expired");
    expect(redact(`sent ${header.toUpperCase()}`, [header])).toBe("sent ***");
    const path = "/home/ada/.config/gcloud/application_default_credentials.json";
    expect(redact("run gcloud auth application-default login", [path])).toBe("run gcloud auth application-default login");
  });

  it("masks a credential header after a JSON-escaped line break", () => {
    expect(redact('{"echo":"user-agent: quotabar\\ncookie: _session=Zq81mXc0Pv7Lw3Ns; theme=dark"}')).toBe(
      '{"echo":"user-agent: quotabar\\ncookie: ***"}',
    );
    expect(redact('"a\\r\\nAuthorization: Basic dXNlcjpwYXNz"')).toBe('"a\\r\\nAuthorization: ***"');
    expect(redact("x-codeium-csrf-token: 5f7d3a1e-8b2c")).toBe("x-codeium-csrf-token: ***");
  });

  it("never lets 8 consecutive characters of a secret through, wherever and in whatever case they are quoted", () => {
    const chars = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.".split(""));
    fc.assert(
      fc.property(
        fc.string({ unit: chars, minLength: MIN_RUN, maxLength: 60 }),
        fc.string({ maxLength: 300 }),
        fc.string({ maxLength: 300 }),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        (key, before, after, from, length, upper) => {
          const start = from % (key.length - MIN_RUN + 1);
          const piece = key.slice(start, start + MIN_RUN + (length % (key.length - start - MIN_RUN + 1)));
          const text = redact(`${before}${upper ? piece.toUpperCase() : piece}${after}`, [key]);
          return runsOf(key, text).length === 0;
        },
      ),
    );
  });

  it("leaves text that shares no 8 characters with any secret as it was", () => {
    const letters = fc.constantFrom(..."abcdefgh ".split(""));
    fc.assert(fc.property(fc.string({ unit: letters, maxLength: 200 }), (text) => redact(text, ["ABCDEFGA-0123456789"]) === text));
  });
});

describe("an excerpt of untrusted text", () => {
  const secret = "Zq81mXc0Pv7Lw3NsR5tY2uI9oP4aS6dF8gH1jK3lL5zX7cV9bN";

  it("is redacted before it is cut: a secret straddling the cut leaves nothing of itself", () => {
    for (let padding = 120; padding <= 199; padding++) {
      const said = redactedExcerpt(`${pad(padding)}${secret} and more`, [secret]);
      expect(said.length).toBeLessThanOrEqual(203);
      expect(runsOf(secret, said)).toEqual([]);
      // where the secret began, the mask (or as much of it as the cut left)
      expect(said.slice(padding, padding + 1)).toBe("*");
    }
  });

  it("takes a CLI's first line, redacted then cut (a token shape cut short would no longer be recognised)", () => {
    const said = cliFailed(2, `\n  ${pad(185)}Authorization: Bearer ${secret}\nsecond line`).message;
    expect(said).toMatch(/^Kiro CLI failed with status 2: lorem ipsum/);
    expect(runsOf(secret, said)).toEqual([]);
    expect(said).not.toContain("second line");
  });
});
