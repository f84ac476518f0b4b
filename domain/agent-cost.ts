import { dollars } from "./number-text.js";
import type { Detail } from "./usage-document.js";

/**
 * What an agent's own logs say its work would have cost at API prices, in US dollars: today's (local
 * day) and the current 5-hour window's. Null where it could not be worked out (no logs, a model
 * without a price, a scan cut short): never shown as $0.
 */
export interface AgentCostFigures {
  today: number | null;
  sessionWindow: number | null;
}

/** The figures as details, the same words for every agent that has them. */
export function agentCostDetails(cost: AgentCostFigures | null | undefined): Detail[] {
  if (!cost) return [];
  const details: Detail[] = [];
  if (cost.today !== null) details.push({ label: "Cost today", value: dollars(cost.today) });
  if (cost.sessionWindow !== null) details.push({ label: "Cost this session", value: dollars(cost.sessionWindow) });
  return details;
}
