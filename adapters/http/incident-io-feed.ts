import * as z from "../../domain/zod.js";
import { fromIso } from "../../domain/coerce.js";
import type { StatusComponent } from "../../domain/status/components.js";
import type { IncidentIoIncident, IncidentIoReading } from "../../domain/status/incident-io.js";
import { tryJson } from "../../domain/decode-body.js";

// Every field may be missing; a page whose feed does not have this shape is not an incident.io page.
const text = z.nullish(z.string());
const hidden = z.nullish(z.boolean());
const ComponentRef = z.object({ component_id: text, id: text, status: text });
const Incident = z.object({
  id: text,
  name: text,
  current_worst_impact: text,
  last_update_at: text,
  published_at: text,
  affected_components: z.nullish(z.array(ComponentRef)),
});
const Item = z.object({
  group: z.nullish(
    z.object({
      id: text,
      name: text,
      hidden,
      components: z.nullish(z.array(z.object({ component_id: text, name: text, hidden }))),
    }),
  ),
  component: z.nullish(z.object({ component_id: text, id: text, name: text, hidden })),
});
/** The proxy feed an incident.io status page is built from (`https://<host>/proxy/<host>`). */
export const IncidentIoProxySchema = z.object({
  summary: z.object({
    affected_components: z.nullish(z.array(ComponentRef)),
    ongoing_incidents: z.nullish(z.array(Incident)),
    structure: z.object({ items: z.array(Item).check(z.minLength(1)) }),
  }),
});

/** The incident.io feed of a status page host (the path repeats the host). */
export function incidentIoProxyUrl(pageUrl: string): string {
  const host = new URL(pageUrl).host;
  return `https://${host}/proxy/${host}`;
}

/**
 * A proxy feed body as the domain reads it; null when it is not one (not JSON, another shape, no
 * component structure): the page is then read as a Statuspage.
 */
export function incidentIoReading(body: string): IncidentIoReading | null {
  const parsed = IncidentIoProxySchema.safeParse(tryJson(body));
  if (!parsed.success) return null;
  const summary = parsed.data.summary;
  const statusOf = new Map<string, string>();
  for (const affected of summary.affected_components ?? []) {
    const id = affected.component_id ?? affected.id;
    if (id && affected.status) statusOf.set(id, affected.status);
  }
  const components: StatusComponent[] = [];
  const groups: (readonly [string, string])[] = [];
  const add = (id: string | null | undefined, name: string | null | undefined, groupName: string | null) => {
    const shown = name?.trim();
    if (!id || !shown) return;
    components.push({ id, name: shown, status: statusOf.get(id) ?? "operational", groupName });
  };
  for (const item of summary.structure.items) {
    const group = item.group;
    if (group && group.hidden !== true) {
      const groupName = group.name?.trim() || null;
      if (group.id && groupName) groups.push([groupName, group.id]);
      for (const member of group.components ?? []) if (member.hidden !== true) add(member.component_id, member.name, groupName);
    } else if (!group && item.component && item.component.hidden !== true) {
      add(item.component.component_id ?? item.component.id, item.component.name, null);
    }
  }
  const incidents = (summary.ongoing_incidents ?? []).map((raw): IncidentIoIncident => ({
    id: raw.id ?? null,
    name: raw.name ?? null,
    currentWorstImpact: raw.current_worst_impact ?? null,
    updatedAt: fromIso(raw.last_update_at) ?? fromIso(raw.published_at),
    componentIds: raw.affected_components
      ? raw.affected_components.flatMap((ref) => {
          const id = ref.component_id ?? ref.id;
          return id ? [id] : [];
        })
      : null,
  }));
  return { components, groups, incidents };
}
