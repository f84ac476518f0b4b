import { XMLParser, XMLValidator } from "fast-xml-parser";
import { MAX_DEPTH } from "./search.js";

/** XML a provider reads (an IDE's options file) as a plain element tree, parsed with bounds. */

export interface XmlElement {
  name: string;
  /** Attribute values, entities decoded (`&quot;`, `&#10;`, ...). */
  attributes: Readonly<Record<string, string>>;
  children: readonly XmlElement[];
}

/** Larger input is refused before parsing: a local options file is a few kilobytes. */
export const MAX_XML_CHARS = 1_000_000;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // numeric character references (`&#10;`) are decoded only with the HTML entity set
  htmlEntities: true,
  processEntities: { maxEntityCount: 20, maxTotalExpansions: 100, maxExpandedLength: 10_000 },
  maxNestedTags: MAX_DEPTH,
});

type OrderedNode = Record<string, unknown>;

/** The top-level elements of an XML document; invalid XML throws a SyntaxError that says where. */
export function parseXml(text: string): XmlElement[] {
  if (text.length > MAX_XML_CHARS) throw new SyntaxError(`document larger than ${MAX_XML_CHARS} characters`);
  const verdict = XMLValidator.validate(text);
  if (verdict !== true) {
    const { msg, line, col } = verdict.err;
    throw new SyntaxError(`${msg.replace(/\.$/, "")} (line ${line}${col === undefined ? "" : `, column ${col}`})`);
  }
  let nodes: OrderedNode[];
  try {
    nodes = parser.parse(text) as OrderedNode[];
  } catch (error) {
    throw new SyntaxError((error as Error).message);
  }
  return elementsOf(nodes);
}

/** Nesting is bounded by the parser (maxNestedTags), so this recursion is too. */
function elementsOf(nodes: readonly OrderedNode[]): XmlElement[] {
  return nodes.flatMap((node) => {
    const name = Object.keys(node).find((key) => key !== ":@" && key !== "#text");
    if (name === undefined) return [];
    const body = node[name] as OrderedNode[];
    const attributes = Object.fromEntries(
      Object.entries((node[":@"] as Record<string, unknown> | undefined) ?? {}).map(([k, v]) => [k, String(v)]),
    );
    return [{ name, attributes, children: elementsOf(body) }];
  });
}

/** Every element, depth first, that satisfies `test` (bounded depth). */
export function findElements(elements: readonly XmlElement[], test: (element: XmlElement) => boolean, depth = 0): XmlElement[] {
  if (depth > MAX_DEPTH) return [];
  return elements.flatMap((element) => [...(test(element) ? [element] : []), ...findElements(element.children, test, depth + 1)]);
}
