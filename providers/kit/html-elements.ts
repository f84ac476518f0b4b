import { DomUtils } from "htmlparser2";
import type { HtmlElement, HtmlPage } from "./html.js";

/**
 * Finding elements of a page parsed by `parsePage` by what they are and where they sit. Every walk
 * is a loop (the page's depth is already capped), never recursion.
 */

/** Every element under `root` that passes `test`, in document order. */
export function elementsWhere(root: HtmlPage | HtmlElement, test: (element: HtmlElement) => boolean): HtmlElement[] {
  const found: HtmlElement[] = [];
  const pending = [...root.children].reverse();
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (!DomUtils.isTag(node)) continue;
    if (test(node)) found.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i]!);
  }
  return found;
}

/** The text directly inside an element (not its children's), whitespace collapsed: a label's own words. */
export function ownText(element: HtmlElement): string {
  return element.children
    .map((child) => (DomUtils.isText(child) ? child.data : " "))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}

/** The next sibling that is an element (text and comments between are passed over), or null. */
export function nextElementSibling(element: HtmlElement): HtmlElement | null {
  for (let next = element.next; next !== null; next = next.next) if (DomUtils.isTag(next)) return next;
  return null;
}
