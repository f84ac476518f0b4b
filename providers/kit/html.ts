import { DomHandler, DomUtils, Parser } from "htmlparser2";
import { parseError, QuotabarError } from "../../domain/errors.js";
import { groupedNumber } from "../../domain/number-text.js";
import { advice } from "../../domain/remedy.js";

/**
 * Reading upstream HTML pages with a real parser (a linear tokenizer), never with regular
 * expressions over the whole page. Every walk here is iterative, so no page can exhaust the stack.
 */

/** Pages longer than this (in characters) are refused before parsing; real pages are far smaller. */
export const MAX_PAGE_CHARS = 2 * 1024 * 1024;
/** Deeper nesting ends the parse: the parser's open-element stack costs its depth on every tag. */
export const MAX_HTML_DEPTH = 512;
/**
 * More nodes (elements, texts, comments) than this end the parse: the tree costs a few hundred
 * bytes a node, so half a million `<p>` in 2 MB would cost ~250 MB. Real pages have a few thousand.
 */
export const MAX_HTML_NODES = 50_000;

export type HtmlPage = DomHandler["root"];
export type HtmlElement = Parameters<typeof DomUtils.getAttributeValue>[0];
type HtmlNode = HtmlPage["children"][number];

/** Elements whose text is never shown to a reader. */
const HIDDEN = new Set(["script", "style", "noscript", "template"]);

class TooDeep extends Error {}
class TooManyNodes extends Error {}

/** Builds the tree, and stops the parse (by throwing) past the depth or the node count allowed. */
class BoundedHandler extends DomHandler {
  private nodes = 0;

  override onopentag(name: string, attribs: Record<string, string>): void {
    if (this.tagStack.length > MAX_HTML_DEPTH) throw new TooDeep();
    super.onopentag(name, attribs);
  }

  protected override addNode(node: Parameters<DomHandler["addNode"]>[0]): void {
    if (++this.nodes > MAX_HTML_NODES) throw new TooManyNodes();
    super.addNode(node);
  }
}

/**
 * The page as a document tree; too long is an upstream error, too deeply nested or with too many
 * elements a parse error (the parse stops there, so such a page never costs more than the cap).
 */
export function parsePage(html: string, service: string): HtmlPage {
  if (html.length > MAX_PAGE_CHARS) {
    throw new QuotabarError("upstream", `${service} sent a page too large to read (over ${MAX_PAGE_CHARS / 1024 / 1024} MB)`, {
      remedies: [advice("A proxy or a changed page may be answering; try again later.")],
    });
  }
  const handler = new BoundedHandler();
  try {
    new Parser(handler).end(html);
  } catch (error) {
    if (error instanceof TooDeep) throw parseError(`${service} sent a page nested too deeply to read (over ${MAX_HTML_DEPTH} levels)`);
    if (error instanceof TooManyNodes) {
      throw parseError(
        `${service} sent a page too large to read (over ${groupedNumber(MAX_HTML_NODES)} elements)`,
        advice("A proxy or a changed page may be answering; try again later."),
      );
    }
    throw error;
  }
  return handler.root;
}

/** Every element under `root` in document order; `enter` decides whether a subtree is walked. */
function* elementsUnder(root: HtmlPage | HtmlElement, enter: (element: HtmlElement) => boolean = () => true): Generator<HtmlNode> {
  const pending: HtmlNode[] = [...root.children].reverse();
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    yield node;
    if (DomUtils.isTag(node) && enter(node)) for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i]!);
  }
}

/** What a reader sees: text outside scripts, styles and templates, entities decoded, whitespace collapsed. */
export function visibleText(root: HtmlPage | HtmlElement): string {
  const parts: string[] = [];
  for (const node of elementsUnder(root, (element) => !HIDDEN.has(element.name))) if (DomUtils.isText(node)) parts.push(node.data);
  return parts.join(" ").replace(/\s+/g, " ").trim();
}

/** The raw text of every inline `<script>`, in document order (where pages keep their state as JSON). */
export function scriptTexts(page: HtmlPage): string[] {
  return inlineScripts(page).map(({ text }) => text);
}

/** The raw text of the first `<script id="...">` (a framework's data blob), or null. */
export function scriptText(page: HtmlPage, id: string): string | null {
  return inlineScripts(page).find((script) => script.id === id)?.text ?? null;
}

function inlineScripts(page: HtmlPage): { id: string | undefined; text: string }[] {
  const scripts: { id: string | undefined; text: string }[] = [];
  for (const node of elementsUnder(page)) {
    if (!DomUtils.isTag(node) || node.name !== "script") continue;
    scripts.push({ id: node.attribs.id, text: node.children.map((child) => (DomUtils.isText(child) ? child.data : "")).join("") });
  }
  return scripts;
}

/** Every element carrying `attribute` (e.g. `data-time`), in document order. */
export function elementsWithAttribute(page: HtmlPage, attribute: string): HtmlElement[] {
  const found: HtmlElement[] = [];
  for (const node of elementsUnder(page)) if (DomUtils.isTag(node) && Object.hasOwn(node.attribs, attribute)) found.push(node);
  return found;
}
