import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redact } from "../../domain/redact.js";
import { cleanStrings, withoutControls } from "../../domain/untrusted-text.js";

describe("upstream text", () => {
  it("loses terminal escapes (clear screen, window title, OSC-8 hyperlinks) and keeps ordinary Unicode", () => {
    expect(withoutControls("\u001b[2J\u001b[HPro plan")).toBe("Pro plan");
    expect(withoutControls("\u001b]0;pwned\u0007Team · 席位")).toBe("Team · 席位");
    expect(withoutControls("\u001b]8;;https://evil.example\u001b\\Renew now\u001b]8;;\u001b\\")).toBe("Renew now");
    expect(withoutControls("a\u0000b\u009bc\td")).toBe("abc d");
  });

  it("never lets a control character through, whatever the input", () => {
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => !/[\x00-\x1f\x7f-\x9f]/.test(withoutControls(text))));
  });

  it("redacts echoed credential headers in their header and JSON forms", () => {
    expect(redact("authorization: Bearer wk-abcdefghijklmnop1234")).toBe("authorization: ***");
    expect(redact('{"cookie":"kimi-auth=eyJhbGciOi; session=abc"}')).toBe('{"cookie":"***"}');
    expect(redact("x-api-key=sk-secret-value")).toBe("x-api-key=***");
  });

  it("cleans every string of a nested value with the fetch's secrets", () => {
    const cleaned = cleanStrings({ plan: "Pro \u001b[31mkey-12345678\u001b[0m", details: [{ label: "x", value: "key-12345678" }] }, [
      "key-12345678",
    ]);
    expect(cleaned).toEqual({ plan: "Pro ***", details: [{ label: "x", value: "***" }] });
  });
});
