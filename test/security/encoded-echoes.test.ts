import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redact } from "../../domain/redact.js";
import { ZAI_TEST_KEY } from "../../providers/zai/simulator.js";
import { filesUnder } from "../helpers/leaks.js";
import { useTamperedSimulator, type Edit } from "../helpers/tampered-simulator.js";

/**
 * An upstream that echoes the request's credential back encoded (base64, base64url, hex), in a
 * plan name or a message: the encoded form is masked as the secret itself is, in what is printed
 * and in the snapshot cache. Before, only the raw, partial, case-changed and URL-encoded forms were.
 */

const tampered = useTamperedSimulator();
const base64 = (text: string) => Buffer.from(text).toString("base64");
/** base64 without its `=` padding (a loop: eslint-plugin-regexp refuses /=+$/). */
const unpadded = (form: string) => form.slice(0, form.indexOf("=") === -1 ? form.length : form.indexOf("="));
const base64url = (text: string) => Buffer.from(text).toString("base64url");
const hex = (text: string) => Buffer.from(text).toString("hex");
const ENCODINGS: Record<string, (secret: string) => string> = {
  base64,
  "base64 without padding": (secret) => unpadded(base64(secret)),
  base64url,
  hex,
  "hex in upper case": (secret) => hex(secret).toUpperCase(),
};
/** The secret encoded inside a longer text: what it shares with the bytes around it may stay (never 8 of the secret's own characters). */
const EMBEDDED: Record<string, (secret: string) => string> = {
  "base64 of user:secret (Basic auth)": (secret) => base64(`user:${secret}`),
  "base64 after two other bytes": (secret) => base64(`ab${secret}`),
};
/** At most the groups of four the other bytes share, then the mask, then a last group and its padding. */
const EDGES_ONLY = /^[A-Za-z0-9+/]{0,8}\*\*\*[A-Za-z0-9+/]{0,4}=*$/;

/** Whether `text` holds 8 consecutive characters of `form`. */
function holdsRunOf(text: string, form: string): boolean {
  for (let i = 0; i + 8 <= form.length; i++) if (text.includes(form.slice(i, i + 8))) return true;
  return false;
}

describe("redaction of encoded echoes", () => {
  const SECRET = "sk-or-v1-0123456789abcdef0123456789abcdef";

  it.each(Object.entries(ENCODINGS))("masks the %s of a secret, whole", (_name, encode) => {
    const echoed = `plan: Pro ${encode(SECRET)} (monthly)`;
    const clean = redact(echoed, [SECRET]);
    expect(clean).toContain("plan: Pro ***");
    expect(clean).toContain("(monthly)");
    expect(holdsRunOf(clean, encode(SECRET))).toBe(false);
  });

  it.each(Object.entries(EMBEDDED))("masks the %s of a secret but for the edges it shares", (_name, encode) => {
    const clean = redact(`plan: Pro ${encode(SECRET)} (monthly)`, [SECRET]);
    expect(clean.slice("plan: Pro ".length, -" (monthly)".length)).toMatch(EDGES_ONLY);
  });

  it("masks every encoding of any token-like secret, wherever it sits", () => {
    const secretChars = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~+/");
    fc.assert(
      fc.property(
        fc.string({ unit: secretChars, minLength: 12, maxLength: 80 }),
        fc.constantFrom(...Object.values(ENCODINGS), ...Object.values(EMBEDDED)),
        fc.string({ maxLength: 40 }),
        (secret, encode, before) => {
          const form = encode(secret);
          const clean = redact(`${before}${form} rest`, [secret]);
          // a piece of a base64 form straddling the padding or the Basic-auth prefix may stay: never 8 of the secret's own characters
          const core = unpadded(form).slice(form.startsWith(base64("user:").slice(0, 6)) ? 8 : 4, -4);
          expect(holdsRunOf(clean, core), `${JSON.stringify(clean)} holds a run of ${core}`).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("leaves ordinary text alone", () => {
    const text = "Pro plan: 1,234 of 5,000 requests, resets 2026-12-01; request id 6f1c2a9e";
    expect(redact(text, ["sk-or-v1-0123456789abcdef0123456789abcdef"])).toBe(text);
  });
});

describe("an upstream that echoes the credential into a plan name, encoded", () => {
  const planNamed =
    (name: string): Edit =>
    (reply) => {
      const body = JSON.parse(reply.body) as { data: Record<string, unknown> };
      body.data.planName = name;
      reply.body = JSON.stringify(body);
    };

  it.each(Object.entries({ ...ENCODINGS, ...EMBEDDED }))(
    "z.ai: the key's %s is masked in the plan and in the snapshot cache",
    async (name, encode) => {
      const form = encode(ZAI_TEST_KEY);
      const usage = await tampered.withEdit("zai", "/api/monitor/usage/quota/limit", planNamed(`GLM Coding Pro ${form}`));
      expect(usage.ok).toBe(true);
      if (name in EMBEDDED) expect(usage.plan?.slice("GLM Coding Pro ".length)).toMatch(EDGES_ONLY);
      else expect(usage.plan).toBe("GLM Coding Pro ***");
      const kept = filesUnder(join(tampered.home, ".cache")).join("\n");
      expect(kept).toContain(`"plan":"${usage.plan}"`);
      expect(holdsRunOf(kept, form.slice(8, -4))).toBe(false);
    },
  );
});
