/**
 * Building the page's elements. Every value goes in as text (textContent) or as an attribute the
 * code names: nothing is ever parsed as HTML, so upstream text such as `<img onerror=…>` shows as
 * the characters it is.
 */

type Child = Node | string | null | undefined | false;

export interface Attributes {
  class?: string;
  /** Attribute names are the code's own; values are set as text. */
  [name: string]: string | undefined;
}

/** `<tag attrs>children</tag>`, strings as text nodes, empty children left out. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  setAttributes(element, attrs);
  append(element, children);
  return element;
}

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element with its attributes (numbers written as they are). */
export function svg(tag: string, attrs: Record<string, string | number> = {}, ...children: Child[]): SVGElement {
  const element = document.createElementNS(SVG, tag) as SVGElement;
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  append(element, children);
  return element;
}

function setAttributes(element: Element, attrs: Attributes): void {
  for (const [name, value] of Object.entries(attrs)) if (value !== undefined) element.setAttribute(name, value);
}

function append(parent: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false || child === "") continue;
    parent.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
}

/** A link to an upstream address only when it is plain http(s): never `javascript:` or `data:`. */
export function safeLink(href: string | null, text: string): HTMLElement {
  if (href !== null && /^https?:\/\//i.test(href)) {
    try {
      return el("a", { href: new URL(href).href, rel: "noopener noreferrer", target: "_blank" }, text);
    } catch {
      // not a URL after all: the text alone
    }
  }
  return el("span", {}, text);
}

let counter = 0;

/** An id no other element of the page has (for aria-labelledby). */
export function uniqueId(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}
