/**
 * One provider (one account) as a card: what Raycast's list shows of it, from the same
 * presentation/ functions: the plan, each meter's bar, percent, quantity, reset countdown, pace and
 * run-out and its sparkline, the details, the status page, the error and its hint, and when it was
 * fetched. Times that move (countdowns, ages) are `Live` texts the page updates every second.
 */
import { METER_ROLES } from "../../../domain/meter.js";
import type { Meter, ProviderUsage } from "../../../domain/usage-document.js";
import type { ProviderHistory } from "../../../ports/usage-history.js";
import { formatAge, formatDateTime, formatPercent, formatQuantity, readableTimes, resetText } from "../../../presentation/format.js";
import { paceText, paceTone } from "../../../presentation/pace.js";
import { hasIncident, incidentLabel, incidentTone, meterTone, type Tone } from "../../../presentation/severity.js";
import { el, safeLink, uniqueId } from "./dom.js";
import { sparkline } from "./sparkline.js";

/** A text that changes with the time, rewritten by the page's clock. */
export interface Live {
  node: HTMLElement;
  text(now: Date): string;
}

export interface Card {
  element: HTMLElement;
  live: Live[];
}

/** The account the document names (an entry of a provider with several accounts), if any. */
export function accountOf(usage: ProviderUsage): string | null {
  const account = (usage as ProviderUsage & { account?: unknown }).account;
  return typeof account === "string" && account !== "" ? account : null;
}

/** "Claude · work", or the name alone for the default account. */
export function cardTitle(usage: ProviderUsage): string {
  const account = accountOf(usage);
  return account ? `${usage.name} · ${account}` : usage.name;
}

export function providerCard(usage: ProviderUsage, history: ProviderHistory | undefined, now: Date): Card {
  const live: Live[] = [];
  const liveText = (className: string, text: (at: Date) => string, title?: string): HTMLElement => {
    const node = el("span", { class: className, title }, text(now));
    live.push({ node, text });
    return node;
  };
  const titleId = uniqueId("card");
  const failed = usage.error !== null && !usage.stale;
  const badge = failed
    ? { text: "Error", tone: "critical" as Tone }
    : usage.stale
      ? { text: "Stale", tone: "warning" as Tone }
      : { text: "OK", tone: "normal" as Tone };
  const status = usage.status;
  const header = el(
    "header",
    { class: "card-head" },
    el(
      "div",
      { class: "card-title" },
      el("h2", { id: titleId }, cardTitle(usage)),
      usage.plan ? el("p", { class: "plan" }, usage.plan) : null,
    ),
    el(
      "ul",
      { class: "badges", "aria-label": "Status" },
      el("li", { class: `badge tone-${badge.tone}` }, badge.text),
      status && hasIncident(status)
        ? el("li", { class: `badge tone-${incidentTone(status)}`, title: status.description }, incidentLabel(status))
        : null,
    ),
  );

  const meters = METER_ROLES.flatMap((role) => {
    const meter = usage[role];
    return meter
      ? [
          meterBlock(
            meter,
            history?.meters.find((m) => m.meter === role),
            now,
            liveText,
          ),
        ]
      : [];
  });

  // folded: the meters are what a glance is for; the details are one click (or Enter) away
  const details =
    usage.details.length > 0
      ? el(
          "details",
          { class: "details" },
          el("summary", {}, `Details (${usage.details.length})`),
          el("dl", {}, ...usage.details.flatMap((d) => [el("dt", {}, d.label), el("dd", {}, readableTimes(d.value))])),
        )
      : null;

  const incidents =
    status && hasIncident(status)
      ? el(
          "div",
          { class: `incident tone-${incidentTone(status)}` },
          el("p", {}, status.description || incidentLabel(status)),
          status.incidents.length > 0
            ? el("ul", {}, ...status.incidents.map((i) => el("li", {}, safeLink(i.url, `${i.name} (${i.impact})`))))
            : null,
          status.url ? el("p", {}, safeLink(status.url, "Status page")) : null,
        )
      : null;

  const error = usage.error
    ? el(
        "div",
        { class: `error tone-${usage.stale ? "warning" : "critical"}`, role: "note", "aria-label": "Error" },
        el("p", { class: "error-message" }, usage.error.message),
        usage.error.hint ? el("p", { class: "hint" }, usage.error.hint) : null,
        el("p", { class: "error-code muted" }, usage.error.code),
      )
    : null;

  const fetchedAt = usage.fetchedAt;
  const footer =
    fetchedAt || usage.source
      ? el(
          "footer",
          { class: "card-foot muted" },
          fetchedAt
            ? liveText(
                "age",
                (at) => `${usage.stale ? "Last good fetch" : "Fetched"} ${formatAge(fetchedAt, at)}`,
                formatDateTime(fetchedAt),
              )
            : null,
          usage.source ? el("span", { class: "source" }, usage.source) : null,
        )
      : null;

  const element = el(
    "article",
    { class: `card${failed ? " failed" : ""}`, "aria-labelledby": titleId },
    header,
    ...meters,
    error,
    incidents,
    details,
    footer,
  );
  return { element, live };
}

type LiveText = (className: string, text: (at: Date) => string, title?: string) => HTMLElement;

function meterBlock(meter: Meter, history: ProviderHistory["meters"][number] | undefined, now: Date, liveText: LiveText): HTMLElement {
  const labelId = uniqueId("meter");
  const tone = meterTone(meter);
  const percentText = meter.unlimited ? "Unlimited" : meter.usedPercent === null ? "" : formatPercent(meter.usedPercent);
  const percent = meter.unlimited ? 100 : meter.usedPercent;
  const quantity = formatQuantity(meter);
  const resetsAt = meter.resetsAt;
  const pace = meter.pace;
  const bar =
    percent === null
      ? null
      : el(
          "div",
          {
            class: `bar tone-${tone}`,
            role: "meter",
            "aria-labelledby": labelId,
            "aria-valuemin": "0",
            "aria-valuemax": "100",
            "aria-valuenow": String(percent),
            "aria-valuetext": meter.unlimited ? "Unlimited" : `${percentText} used`,
          },
          fill(percent),
        );
  return el(
    "section",
    { class: "meter", "aria-labelledby": labelId },
    el(
      "div",
      { class: "meter-head" },
      el("h3", { id: labelId }, meter.label),
      percentText ? el("span", { class: `percent tone-${tone}` }, meter.unlimited ? percentText : `${percentText} used`) : null,
    ),
    bar,
    quantity || resetsAt
      ? el(
          "p",
          { class: "facts" },
          quantity ? el("span", { class: "quantity" }, quantity) : null,
          resetsAt ? liveText("reset", (at) => resetText(meter, at) ?? "", `Resets ${formatDateTime(resetsAt)}`) : null,
        )
      : null,
    pace
      ? el(
          "p",
          { class: `pace tone-${paceTone(pace)}` },
          liveText("pace-text", (at) => capitalized(paceText(pace, resetsAt, at))),
        )
      : null,
    sparkline(meter, history, now),
    meter.note && meter.note !== "Unlimited" ? el("p", { class: "note muted" }, meter.note) : null,
  );
}

/** The bar's filled part; its width set through the CSSOM (the policy allows no style attribute). */
function fill(percent: number): HTMLElement {
  const inner = el("div", { class: "fill" });
  inner.style.width = `${Math.min(100, Math.max(0, percent))}%`;
  return inner;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
