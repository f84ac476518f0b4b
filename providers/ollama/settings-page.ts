import { advice, parseError, percentProblem, toTime } from "../kit/index.js";
import { parsePage, visibleText, type HtmlElement, type HtmlPage } from "../kit/html.js";
import { elementsWhere, nextElementSibling, ownText } from "../kit/html-elements.js";
import type { OllamaBar, OllamaReading } from "./policy.js";

/** What the settings page showed: its usage, a sign-in form, or neither (and which labels it had). */
export type SettingsPage =
  { kind: "usage"; reading: OllamaReading } | { kind: "signed-out" } | { kind: "no-usage"; labelsWithoutPercent: string[] };

const SESSION_LABELS = ["Session usage", "Hourly usage"];
const WEEKLY_LABEL = "Weekly usage";
const LABELS = [...SESSION_LABELS, WEEKLY_LABEL];
/** A bar's text ends at the next usage label, and never runs on longer than this. */
const MAX_BAR_TEXT = 4000;

// the sign is read too, so "-5% used" is refused instead of read as 5
const PERCENT_USED = /(-?\d{1,6}(?:\.\d{1,6})?)\s*%\s*used/i;
const BAR_WIDTH = /width\s*:\s*(-?\d{1,6}(?:\.\d{1,6})?)%/i;

/** The page parsed once (size and nesting bounded by the kit); labels, bars and times read from its elements. */
export function readSettingsPage(html: string): SettingsPage {
  const page = parsePage(html, "Ollama");
  const order = new Map(elementsWhere(page, () => true).map((element, index) => [element, index]));
  const text = visibleText(page);
  const lower = text.toLowerCase();
  const labels = LABELS.map((label) => ({
    label,
    at: lower.indexOf(label.toLowerCase()),
    element: elementsWhere(page, (e) => ownText(e).toLowerCase().includes(label.toLowerCase()))[0] ?? null,
  })).filter((found) => found.at >= 0);

  const barOf = (label: string): OllamaBar | null => {
    const found = labels.find((l) => l.label === label);
    if (!found) return null;
    const ends = labels.map((l) => l.at).filter((at) => at > found.at);
    const barText = text.slice(found.at + label.length, Math.min(found.at + MAX_BAR_TEXT, ...ends));
    // the bar's own elements: after its label, before the next label
    const after = found.element === null ? null : (order.get(found.element) ?? null);
    const before = Math.min(Infinity, ...labels.filter((l) => l.element && l.at > found.at).map((l) => order.get(l.element!) ?? Infinity));
    const own = after === null ? [] : [...order].filter(([, index]) => index > after && index < before).map(([element]) => element);
    const percent = PERCENT_USED.exec(barText)?.[1] ?? widthOf(own);
    if (percent === undefined) return null;
    const time = own.find((e) => Object.hasOwn(e.attribs, "data-time"))?.attribs["data-time"];
    return { usedPercent: checkedPercent(label, Number(percent)), resetsAt: toTime(time) };
  };

  const sessionLabel = SESSION_LABELS.find((label) => labels.some((l) => l.label === label));
  const session = sessionLabel ? barOf(sessionLabel) : null;
  const weekly = barOf(WEEKLY_LABEL);
  if (session || weekly) {
    return {
      kind: "usage",
      reading: {
        badge: planBadge(page),
        email: accountEmail(page),
        session: session ? { ...session, hourly: sessionLabel === "Hourly usage" } : null,
        weekly,
      },
    };
  }
  if (looksSignedOut(page, lower)) return { kind: "signed-out" };
  return { kind: "no-usage", labelsWithoutPercent: labels.map((l) => l.label) };
}

/** A bar's percentage is never negative (above 100 is a full bar: domain/coerce's rule); anything else is a parse error naming the bar. */
function checkedPercent(label: string, percent: number): number {
  const problem = percentProblem(percent);
  if (problem === null) return percent;
  throw parseError(
    `Could not parse Ollama usage: the ${label} percentage ${problem}.`,
    advice("Ollama may have changed its settings page."),
  );
}

/** The bar's inline style (`width: 12.4%`) when the page prints no "% used". */
function widthOf(elements: HtmlElement[]): string | undefined {
  for (const element of elements) {
    const width = BAR_WIDTH.exec(element.attribs.style ?? "")?.[1];
    if (width !== undefined) return width;
  }
  return undefined;
}

/** The `<span>` right after the element that ends with "Cloud Usage" (the badge beside the heading). */
function planBadge(page: HtmlPage): string | null {
  const heading = elementsWhere(page, (e) => ownText(e).toLowerCase().endsWith("cloud usage"))[0];
  const badge = heading ? nextElementSibling(heading) : null;
  const text = badge?.name === "span" ? visibleText(badge) : "";
  return text === "" || text.length > 40 ? null : text;
}

function accountEmail(page: HtmlPage): string | null {
  const element = elementsWhere(page, (e) => e.attribs.id === "header-email")[0];
  const text = element ? visibleText(element) : "";
  return text.includes("@") && text.length <= 254 ? text : null;
}

const AUTH_ROUTES = new Set(["/login", "/signin"]);
const isAuthRoute = (value: string | undefined) => {
  const route = value?.trim().toLowerCase() ?? "";
  return AUTH_ROUTES.has(route) || route.includes("/auth/signin");
};

/** A sign-in form: a form with a sign-in route, or with email and password fields, or under a "Sign in to Ollama" heading. */
function looksSignedOut(page: HtmlPage, lowerText: string): boolean {
  const form = elementsWhere(page, (e) => e.name === "form").length > 0;
  if (!form) return false;
  const inputs = elementsWhere(page, (e) => e.name === "input");
  const field = (kind: string) => inputs.some((i) => i.attribs.type?.toLowerCase() === kind || i.attribs.name?.toLowerCase() === kind);
  const route = elementsWhere(page, (e) => isAuthRoute(e.attribs.href) || isAuthRoute(e.attribs.action)).length > 0;
  const heading = lowerText.includes("sign in to ollama") || lowerText.includes("log in to ollama");
  return route || (field("email") && field("password")) || (heading && (field("email") || field("password")));
}
