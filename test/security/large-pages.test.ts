import { describe, expect, it } from "vitest";
import { MAX_HTML_NODES, parsePage, visibleText } from "../../providers/kit/html.js";
import { MINIMAX_TEST_COOKIE } from "../../providers/minimax/simulator.js";
import { answerOf, textIn, useTamperedSimulator } from "../helpers/tampered-simulator.js";

/**
 * A page with more elements than any real one (half a million `<p>` in 2 MB cost 606 MB on the
 * MiniMax route) is refused by the kit's parser as it reads, with a `parse` error saying the page
 * is too large, for every provider that reads a page. What such a page costs is the bench's
 * business (`npm run bench:pages`); here only the outcome is pinned.
 */

const { withEdit } = useTamperedSimulator();

const HUGE_PAGE = `<html><body>${"<p>x".repeat(500_000)}</body></html>`;
const TOO_LARGE = /sent a page too large to read \(over 50,000 elements\)/;

describe("the kit's page parser", () => {
  it("reads a page of as many nodes as it allows, and refuses one more", () => {
    const comments = (n: number) => "<!---->".repeat(n);
    expect(visibleText(parsePage(`${comments(MAX_HTML_NODES - 1)}ok`, "Test"))).toBe("ok");
    expect(() => parsePage(comments(MAX_HTML_NODES + 1), "Test")).toThrow(
      expect.objectContaining({ code: "parse", message: "Test sent a page too large to read (over 50,000 elements)" }),
    );
  });

  it("counts text and elements alike, and stops at the cap however long the rest is", () => {
    expect(HUGE_PAGE.length).toBeLessThan(2 * 1024 * 1024); // under the size cap: the node cap is what refuses it
    expect(() => parsePage(HUGE_PAGE, "Test")).toThrow(
      expect.objectContaining({ code: "parse", message: expect.stringMatching(TOO_LARGE) }),
    );
  });
});

describe("a huge page from an upstream", () => {
  it("ollama: the settings page is a parse error saying it is too large", async () => {
    const usage = await withEdit("ollama", "/settings", answerOf(HUGE_PAGE, "text/html"));
    expect(usage).toMatchObject({ ok: false, primary: null, error: { code: "parse", message: expect.stringMatching(TOO_LARGE) } });
  });

  it("ollama: a real page grown with many elements, still under the cap, reads as before", async () => {
    const filler = "<p>x".repeat(20_000);
    const usage = await withEdit("ollama", "/settings", textIn("</main>", `${filler}</main>`));
    expect(usage).toMatchObject({ ok: true, primary: { label: "Session", usedPercent: 12.4 } });
  });

  it("amp: the settings page is a parse error saying it is too large", async () => {
    const usage = await withEdit("amp", "/settings", answerOf(HUGE_PAGE, "text/html"), { source: "web" });
    expect(usage).toMatchObject({ ok: false, primary: null, error: { code: "parse", message: expect.stringMatching(TOO_LARGE) } });
  });

  it("minimax: the coding-plan page and the remains API both answering it is a parse error saying it is too large", async () => {
    const routes = ["/user-center/payment/coding-plan", "/v1/api/openplatform/coding_plan/remains"];
    const usage = await withEdit("minimax", routes, answerOf(HUGE_PAGE, "text/html"), {
      source: "web",
      env: { MINIMAX_API_KEY: undefined, MINIMAX_CODING_API_KEY: undefined, MINIMAX_COOKIE: MINIMAX_TEST_COOKIE },
    });
    expect(usage).toMatchObject({ ok: false, primary: null, error: { code: "parse", message: expect.stringMatching(TOO_LARGE) } });
  });

  it("opencode: a huge error page is a parse error saying it is too large", async () => {
    const usage = await withEdit("opencode", "/_server", answerOf(HUGE_PAGE, "text/html", 502));
    expect(usage).toMatchObject({ ok: false, primary: null, error: { code: "parse", message: expect.stringMatching(TOO_LARGE) } });
  });
});
