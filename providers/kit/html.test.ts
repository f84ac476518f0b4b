import { describe, expect, it } from "vitest";
import { elementsWithAttribute, MAX_HTML_DEPTH, MAX_PAGE_CHARS, parsePage, scriptText, scriptTexts, visibleText } from "./html.js";

const PAGE = `<!DOCTYPE html><html><head><title>Usage</title><style>p { content: "hidden" }</style>
  <script id="__NEXT_DATA__" type="application/json">{"a":"<b>1</b>"}</script></head>
  <body><p>Session&nbsp;usage:\n  <b>25%</b> &amp; more</p><noscript>Enable JS</noscript><template><p>later</p></template>
  <script>window.x = "Log in";</script><time data-time="2026-11-20T10:00:00Z">in 3 hours</time><span data-x="">empty</span></body></html>`;

describe("kit html", () => {
  it("gives the visible text: no scripts, styles, noscript or templates; entities decoded; whitespace collapsed", () => {
    expect(visibleText(parsePage(PAGE, "Test"))).toBe("Usage Session usage: 25% & more in 3 hours empty");
  });

  it("gives the raw text of scripts, by id or all of them", () => {
    const page = parsePage(PAGE, "Test");
    expect(scriptText(page, "__NEXT_DATA__")).toBe('{"a":"<b>1</b>"}');
    expect(scriptText(page, "missing")).toBeNull();
    expect(scriptTexts(page)).toEqual(['{"a":"<b>1</b>"}', 'window.x = "Log in";']);
  });

  it("finds the elements carrying an attribute (their own, never an inherited name)", () => {
    const page = parsePage(PAGE, "Test");
    const times = elementsWithAttribute(page, "data-time");
    expect(times.map((element) => [element.attribs["data-time"], visibleText(element)])).toEqual([["2026-11-20T10:00:00Z", "in 3 hours"]]);
    expect(elementsWithAttribute(page, "data-x")).toHaveLength(1);
    expect(elementsWithAttribute(page, "constructor")).toEqual([]);
  });

  it("refuses a page too large (upstream) or nested too deeply (parse), and reads one just within the depth", () => {
    expect(() => parsePage("x".repeat(MAX_PAGE_CHARS + 1), "Test")).toThrowError(
      expect.objectContaining({ code: "upstream", message: "Test sent a page too large to read (over 2 MB)" }),
    );
    expect(() => parsePage("<div>".repeat(MAX_HTML_DEPTH + 2), "Test")).toThrowError(expect.objectContaining({ code: "parse" }));
    expect(visibleText(parsePage(`${"<div>".repeat(MAX_HTML_DEPTH)}deep`, "Test"))).toBe("deep");
  });
});
