/**
 * The cost section, shown only when the server answers /cost: the total at API prices over the
 * span it covers and the models that cost the most. The document is read field by field: anything
 * missing or of another shape leaves the section out rather than showing a wrong number.
 */
import { dollars } from "../../../domain/number-text.js";
import { el, uniqueId } from "./dom.js";

const MODELS_SHOWN = 5;

interface ModelCost {
  model: string;
  costUsd: number | null;
  agent?: string;
}

/** The section's content (its heading first), or null when `body` is not a cost document this page can read. */
export function costSection(body: unknown): HTMLElement[] | null {
  if (!isRecord(body) || !isRecord(body.total)) return null;
  const total = body.total.costUsd;
  if (typeof total !== "number" || !Number.isFinite(total)) return null;
  const span = typeof body.since === "string" && typeof body.until === "string" ? `${body.since} to ${body.until}` : null;
  const models = (Array.isArray(body.models) ? body.models : []).filter(
    (m): m is ModelCost => isRecord(m) && typeof m.model === "string" && (m.costUsd === null || typeof m.costUsd === "number"),
  );
  const titleId = uniqueId("cost");
  const parts: (HTMLElement | null)[] = [
    el("h2", { id: titleId }, "Cost at API prices"),
    el("p", { class: "cost-total" }, el("strong", {}, dollars(total)), span ? ` · ${span}` : null),
    models.length > 0
      ? el(
          "table",
          { "aria-labelledby": titleId },
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Model"), el("th", { scope: "col" }, "Cost"))),
          el(
            "tbody",
            {},
            ...models
              .slice(0, MODELS_SHOWN)
              .map((m) =>
                el(
                  "tr",
                  {},
                  el("td", {}, typeof m.agent === "string" ? `${m.model} (${m.agent})` : m.model),
                  el("td", {}, m.costUsd === null ? "no price" : dollars(m.costUsd)),
                ),
              ),
          ),
        )
      : null,
  ];
  return parts.filter((part): part is HTMLElement => part !== null);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
