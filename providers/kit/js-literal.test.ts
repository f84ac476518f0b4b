import { describe, expect, it } from "vitest";
import { jsLiterals } from "./js-literal.js";
import { MAX_DEPTH } from "./search.js";

describe("kit jsLiterals", () => {
  it("reads bare and quoted keys, !0/!1, escapes, numbers, holes, and JSON alike", () => {
    const text = `x = {a:1,"b":'two',c:!0,d:!1,e:-2.5e1,f:[1,,3],g:null,h:"\\x3C\\u0041\\u{1F600}\\n",i:.5,j:10n,k:-Infinity,};`;
    expect(jsLiterals(text, "Test")).toEqual([
      { a: 1, b: "two", c: true, d: false, e: -25, f: [1, undefined, 3], g: null, h: "<A\u{1F600}\n", i: 0.5, j: 10, k: null },
    ]);
    expect(jsLiterals('{"rollingUsage":{"usagePercent":17}}', "Test")).toEqual([{ rollingUsage: { usagePercent: 17 } }]);
  });

  it("reads seroval's assignments and references, and skips code where a value would be", () => {
    const text = `$R[16]($R[30],$R[41]={rollingUsage:$R[42]={status:"ok",resetInSec:5944,usagePercent:17},ref:$R[30],at:$R[1]=new Date("2026-07-29T14:45:11.000Z"),f:(a)=>{return a},n:1});`;
    const objects = jsLiterals(text, "Test").filter((value) => !Array.isArray(value));
    expect(objects).toEqual([
      { rollingUsage: { status: "ok", resetInSec: 5944, usagePercent: 17 }, ref: undefined, at: undefined, f: undefined, n: 1 },
    ]);
  });

  it("finds the data inside a page script, past statements that only look like literals", () => {
    const script = `{ __kit = { base: new URL("..", location).pathname.slice(0, -1) }; const s = "{not: 1}";
      Promise.all([import("/a.js")]).then(([kit, app]) => { kit.start(app, el, { node_ids: [0, 4], data: [null,{type:"data",data:{freeTierUsage:{quota:1000,used:262.5}}}], form: null }); }); }`;
    const values = jsLiterals(script, "Test");
    expect(values).toContainEqual({
      node_ids: [0, 4],
      data: [null, { type: "data", data: { freeTierUsage: { quota: 1000, used: 262.5 } } }],
      form: null,
    });
    expect(values).not.toContainEqual({ not: 1 });
  });

  it("never sets a prototype, and refuses data nested past MAX_DEPTH with a parse error", () => {
    const [value] = jsLiterals('{"__proto__":{"polluted":1},ok:1}', "Test") as [Record<string, unknown>];
    expect(value).toEqual({ ok: 1 });
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(jsLiterals(`${"[".repeat(MAX_DEPTH)}1${"]".repeat(MAX_DEPTH)}`, "Test")).toHaveLength(1);
    expect(() => jsLiterals(`${"[".repeat(MAX_DEPTH + 1)}1${"]".repeat(MAX_DEPTH + 1)}`, "Test")).toThrowError(
      expect.objectContaining({ code: "parse", message: `Failed to parse Test response: its data nests deeper than ${MAX_DEPTH} levels` }),
    );
    expect(() => jsLiterals(`{a:${"$R[1]=".repeat(100_000)}1}`, "Test")).toThrowError(expect.objectContaining({ code: "parse" }));
  });

  // quadratic work on these 200 000 characters would take minutes: the test's timeout is the bound
  it("stays linear on hostile text: unterminated strings, templates, brackets", { timeout: 30_000 }, () => {
    for (const unit of ["{a:", '"', "`${", "{a:f(", "[", "'x", "{", "\\u{", "$R[1]"]) {
      const text = unit.repeat(200_000 / unit.length);
      try {
        expect(Array.isArray(jsLiterals(text, "Test"))).toBe(true);
      } catch (error) {
        expect(error, unit).toMatchObject({ code: "parse" });
      }
    }
  });
});
