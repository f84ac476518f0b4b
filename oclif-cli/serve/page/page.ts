/**
 * The page of `quotabar serve` (`/`): every provider as a card, read from /usage (and /history for
 * the sparklines, /cost when the server has it) every refresh interval, without reloading. Off
 * loopback the data needs serve's bearer token: the page asks for it once and keeps it in this
 * tab's session storage, sending it only as an Authorization header (never in a URL).
 */
import type { ProviderUsage, UsageDocument } from "../../../domain/usage-document.js";
import type { ProviderHistory } from "../../../ports/usage-history.js";
import { formatDuration } from "../../duration.js";
import { costSection } from "./cost-section.js";
import { el } from "./dom.js";
import { accountOf, providerCard, type Live } from "./provider-card.js";

const TOKEN_KEY = "quotabar-serve-token";
/** The page asks at least this often: serve's providers refresh on timers of their own, each at its own moment. */
const MAX_POLL_MS = 15_000;
/** /cost may be slow to work out: asked once per refresh interval, at most once a minute. */
const MIN_COST_MS = 60_000;

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const view = {
  updated: byId<HTMLParagraphElement>("updated"),
  problem: byId<HTMLParagraphElement>("problem"),
  form: byId<HTMLFormElement>("token-form"),
  token: byId<HTMLInputElement>("token"),
  tokenError: byId<HTMLParagraphElement>("token-error"),
  providers: byId<HTMLElement>("providers"),
  cost: byId<HTMLElement>("cost"),
  cadence: byId<HTMLElement>("cadence"),
  forget: byId<HTMLButtonElement>("forget"),
};

/** Each card as last drawn, by provider and account: redrawn only when its data changed (focus and reading place stay). */
const cards = new Map<string, { signature: string; element: HTMLElement; live: Live[] }>();
let pollTimer: number | undefined;
let costAskedAt = -Infinity;
/** serve's --interval, as /usage says it; null until it does. */
let intervalMs: number | null = null;

class Refused extends Error {}

function storedToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null; // storage turned off: the token is asked again at each load
  }
}

async function get(path: string): Promise<Response> {
  const token = storedToken();
  const response = await fetch(path, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    cache: "no-store",
    credentials: "omit",
    redirect: "error",
  });
  if (response.status === 401) throw new Refused();
  return response;
}

async function json(path: string): Promise<unknown> {
  const response = await get(path);
  return response.ok ? response.json() : null;
}

async function refresh(): Promise<void> {
  window.clearTimeout(pollTimer);
  let usage: Response;
  try {
    usage = await get("usage");
  } catch (error) {
    if (error instanceof Refused) return askForToken();
    showProblem("Cannot reach quotabar serve. Trying again…");
    return schedule();
  }
  if (usage.status === 403) {
    showProblem(
      "This quotabar serve has no token, so it answers only pages opened at localhost or 127.0.0.1. Open it there, or start it with --token.",
    );
    return schedule();
  }
  if (!usage.ok) {
    showProblem(`quotabar serve answered ${usage.status}. Trying again…`);
    return schedule();
  }
  const seconds = Number(usage.headers.get("Quotabar-Refresh-Interval"));
  if (Number.isFinite(seconds) && seconds > 0) intervalMs = seconds * 1000;
  try {
    const doc = (await usage.json()) as UsageDocument;
    if (!Array.isArray(doc.providers)) throw new Error("not a usage document");
    const history = (await json("history").catch(() => null)) as { providers?: ProviderHistory[] } | null;
    showProblem(null);
    view.form.hidden = true;
    view.forget.hidden = storedToken() === null;
    drawCards(doc.providers, Array.isArray(history?.providers) ? history.providers : []);
    await refreshCost();
  } catch (error) {
    if (error instanceof Refused) return askForToken();
    showProblem("quotabar serve sent something this page cannot read. Trying again…");
  }
  schedule();
}

function schedule(): void {
  window.clearTimeout(pollTimer);
  pollTimer = window.setTimeout(() => void refresh(), Math.min(intervalMs ?? MAX_POLL_MS, MAX_POLL_MS));
}

function keyOf(usage: ProviderUsage): string {
  return `${usage.id}\u0000${accountOf(usage) ?? ""}`;
}

function drawCards(providers: readonly ProviderUsage[], history: readonly ProviderHistory[]): void {
  const now = new Date();
  const seen = new Set<string>();
  let previous: HTMLElement | null = null;
  for (const usage of providers) {
    const key = keyOf(usage);
    seen.add(key);
    const kept = history.find(
      (h) => h.provider === usage.id && ((h as ProviderHistory & { account?: unknown }).account ?? null) === accountOf(usage),
    );
    const signature = JSON.stringify([usage, kept ?? null]);
    let card = cards.get(key);
    if (!card || card.signature !== signature) {
      const made = providerCard(usage, kept, now);
      if (card) card.element.replaceWith(made.element);
      card = { signature, ...made };
      cards.set(key, card);
    }
    // in the document's order
    if (previous ? previous.nextSibling !== card.element : view.providers.firstChild !== card.element) {
      if (previous) previous.after(card.element);
      else view.providers.prepend(card.element);
    }
    previous = card.element;
  }
  for (const [key, card] of cards) {
    if (seen.has(key)) continue;
    card.element.remove();
    cards.delete(key);
  }
  if (providers.length === 0 && !view.providers.querySelector(".empty"))
    view.providers.append(el("p", { class: "empty muted" }, "No provider has been refreshed yet."));
  else if (providers.length > 0) view.providers.querySelector(".empty")?.remove();
  view.updated.textContent = `${providers.length} provider${providers.length === 1 ? "" : "s"} · read ${now.toLocaleTimeString()}`;
  view.cadence.textContent = intervalMs === null ? "" : `quotabar serve refreshes each provider every ${formatDuration(intervalMs)}.`;
  tick();
}

async function refreshCost(): Promise<void> {
  if (Date.now() - costAskedAt < Math.max(intervalMs ?? 0, MIN_COST_MS)) return;
  costAskedAt = Date.now();
  const parts = costSection(await json("cost").catch((error: unknown) => (error instanceof Refused ? Promise.reject(error) : null)));
  view.cost.hidden = parts === null;
  view.cost.replaceChildren(...(parts ?? []));
  if (parts?.[0]?.id) view.cost.setAttribute("aria-labelledby", parts[0].id);
}

/** Countdowns and ages, each rewritten only when its text changes. */
function tick(): void {
  const now = new Date();
  for (const card of cards.values()) {
    for (const { node, text } of card.live) {
      const next = text(now);
      if (node.textContent !== next) node.textContent = next;
    }
  }
}

function showProblem(text: string | null): void {
  view.problem.hidden = text === null;
  view.problem.textContent = text ?? "";
}

function askForToken(): void {
  const had = storedToken() !== null;
  forgetToken();
  clearData();
  showProblem(null);
  view.form.hidden = false;
  view.tokenError.textContent = had ? "The server refused that token. Check it and try again." : "";
  view.token.value = "";
  view.token.focus();
}

function forgetToken(): void {
  try {
    sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // nothing was kept
  }
  view.forget.hidden = true;
}

view.form.addEventListener("submit", (event) => {
  event.preventDefault(); // nothing is submitted anywhere: the token goes only into session storage and headers
  const token = view.token.value.trim();
  if (token === "") return;
  try {
    sessionStorage.setItem(TOKEN_KEY, token);
  } catch {
    view.tokenError.textContent = "This browser keeps nothing for this tab (session storage is off), so the page cannot use a token.";
    return;
  }
  view.tokenError.textContent = "Checking…";
  void refresh();
});

/** What the last token let the page read is taken down with it. */
function clearData(): void {
  for (const card of cards.values()) card.element.remove();
  cards.clear();
  view.cost.hidden = true;
  view.cost.replaceChildren();
  view.updated.textContent = "";
}

view.forget.addEventListener("click", () => {
  forgetToken();
  clearData();
  void refresh();
});

window.setInterval(tick, 1_000);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") void refresh();
});
void refresh();
