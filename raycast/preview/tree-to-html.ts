/**
 * Turns the trees the commands render against the `@raycast/api` double into HTML that imitates
 * what Raycast draws: a macOS menu under a menu-bar item, and the Raycast list with its detail
 * pane and action bar. Only presentation lives here; every word and number comes from the tree.
 */
import type { ReactTestRendererJSON, ReactTestRendererNode } from "react-test-renderer";
import { glyph } from "./glyphs.js";
import { escapeHtml, markdownToHtml } from "./markdown.js";

type Node = ReactTestRendererJSON;
type Props = Record<string, unknown>;

export const RAYCAST_COLORS: Record<string, string> = {
  "raycast-blue": "#56C2FF",
  "raycast-green": "#59D499",
  "raycast-magenta": "#FF63C3",
  "raycast-orange": "#FF8A4C",
  "raycast-purple": "#CF7FFF",
  "raycast-red": "#FF6363",
  "raycast-yellow": "#FFC531",
  "raycast-primary-text": "inherit",
  "raycast-secondary-text": "#8E8E93",
};

const colorOf = (value: unknown): string | undefined => (typeof value === "string" ? (RAYCAST_COLORS[value] ?? value) : undefined);

function kids(node: Node): Node[] {
  return (node.children ?? []).filter((c: ReactTestRendererNode): c is Node => typeof c !== "string");
}

function find(node: Node, type: string): Node[] {
  const found: Node[] = [];
  const walk = (n: Node) => {
    if (n.type === type) found.push(n);
    kids(n).forEach(walk);
  };
  walk(node);
  return found;
}

function slot(node: Node, name: string): Node | undefined {
  const holder = kids(node).find((c) => c.type === "slot" && c.props.name === name);
  return holder ? kids(holder)[0] : undefined;
}

/** An `Image.ImageLike`: a data URI, an `Icon.*` name, or `{ source, tintColor }`. */
export function iconHtml(icon: unknown, size = 16, fallbackColor = "currentColor"): string {
  if (icon === undefined || icon === null) return "";
  if (typeof icon === "string") {
    if (icon.startsWith("data:") || icon.startsWith("file:"))
      return `<img class="icon" width="${size}" height="${size}" src="${escapeHtml(icon)}">`;
    return glyph(icon, fallbackColor, size);
  }
  const { source, tintColor } = icon as { source: string; tintColor?: string };
  return iconHtml(source, size, colorOf(tintColor) ?? fallbackColor);
}

function shortcutText(shortcut: unknown): string {
  if (!shortcut || typeof shortcut !== "object") return "";
  const { modifiers = [], key } = shortcut as { modifiers?: string[]; key: string };
  const symbols: Record<string, string> = { cmd: "⌘", shift: "⇧", opt: "⌥", ctrl: "⌃" };
  const order = ["ctrl", "opt", "shift", "cmd"];
  return (
    [...modifiers]
      .sort((a, b) => order.indexOf(a) - order.indexOf(b))
      .map((m) => symbols[m] ?? m)
      .join("") + key.toUpperCase()
  );
}

/** A text value that may be `{ value, color }`. */
function textOf(value: unknown): { text: string; color?: string } {
  if (value && typeof value === "object" && "value" in value) {
    const { value: text, color } = value as { value: string; color?: string };
    const resolved = colorOf(color);
    return resolved ? { text, color: resolved } : { text };
  }
  return { text: value === undefined || value === null ? "" : String(value) };
}

// ------------------------------------------------------------------ menu bar

export interface MenuBarHtml {
  /** The status item in the menu bar: icon and title. */
  item: string;
  /** The open menu. */
  menu: string;
}

export function menuBarToHtml(tree: Node): MenuBarHtml {
  const extra = find(tree, "MenuBarExtra")[0];
  if (!extra) throw new Error("no MenuBarExtra in the tree");
  const p = extra.props as Props;
  const item = `${iconHtml(p.icon, 17)}${p.title ? `<span class="status-title">${escapeHtml(String(p.title))}</span>` : ""}`;
  const sections = kids(extra).filter((k) => k.type === "MenuBarExtra.Section");
  const parts = sections.map((section) => {
    const title = (section.props as Props).title;
    const header = title ? `<div class="menu-header">${escapeHtml(String(title))}</div>` : "";
    const items = kids(section)
      .filter((k) => k.type === "MenuBarExtra.Item")
      .map((k) => menuItemHtml(k.props as Props))
      .join("");
    return header + items;
  });
  return { item, menu: parts.join(`<div class="menu-separator"></div>`) };
}

function menuItemHtml(p: Props): string {
  const enabled = typeof p.onAction === "function";
  const subtitle = p.subtitle ? `<span class="menu-subtitle">${escapeHtml(String(p.subtitle))}</span>` : "";
  const shortcut = p.shortcut ? `<span class="menu-shortcut">${shortcutText(p.shortcut)}</span>` : "";
  return `<div class="menu-item${enabled ? "" : " disabled"}"><span class="menu-icon">${iconHtml(p.icon, 16)}</span><span class="menu-title">${escapeHtml(String(p.title ?? ""))}</span>${subtitle}${shortcut}</div>`;
}

// ------------------------------------------------------------------ list

export interface ListHtmlOptions {
  /** The `id` of the selected row (its detail and actions are shown); default the first row. */
  selected?: string;
  /** Show the ⌘K action panel of the selected row. */
  showActions?: boolean;
  commandTitle: string;
}

export function listToHtml(tree: Node, options: ListHtmlOptions): string {
  const list = find(tree, "List")[0];
  if (!list) throw new Error("no List in the tree");
  const p = list.props as Props;
  const items = find(list, "List.Item");
  const selected = items.find((i) => (i.props as Props).id === options.selected) ?? items[0];
  const search = `<div class="search"><span class="search-text">${escapeHtml(String(p.searchBarPlaceholder ?? "Search…"))}</span>${
    p.isLoading ? `<div class="loading-bar"></div>` : ""
  }</div>`;

  const empty = find(list, "List.EmptyView")[0];
  let body: string;
  if (items.length === 0 && empty) {
    const e = empty.props as Props;
    body = `<div class="empty">${iconHtml(e.icon, 44, "#8E8E93")}<div class="empty-title">${escapeHtml(String(e.title ?? ""))}</div><div class="empty-description">${escapeHtml(
      String(e.description ?? ""),
    )}</div></div>`;
  } else {
    const rows = kids(list)
      .filter((k) => k.type === "List.Section" || k.type === "List.Item")
      .map((k) => (k.type === "List.Section" ? sectionHtml(k, selected) : rowHtml(k, k === selected)))
      .join("");
    const detail = selected && p.isShowingDetail ? detailHtml(slot(selected, "detail")) : "";
    body = `<div class="panes${p.isShowingDetail ? " with-detail" : ""}"><div class="rows">${rows}</div>${detail ? `<div class="detail">${detail}</div>` : ""}</div>`;
  }

  const actionPanel = selected ? slot(selected, "actions") : empty ? slot(empty, "actions") : undefined;
  const actions = actionPanel ? actionNodes(actionPanel) : [];
  const primary = actions[0] ? String((actions[0].props as Props).title ?? "") : "";
  const bar = `<div class="action-bar"><span class="command-title">${glyph("List", "#8E8E93", 14)} ${escapeHtml(options.commandTitle)}</span><span class="action-bar-right">${
    primary ? `<span class="primary-action">${escapeHtml(primary)} <kbd>↵</kbd></span><span class="bar-divider"></span>` : ""
  }<span class="actions-hint">Actions <kbd>⌘</kbd><kbd>K</kbd></span></span></div>`;
  const panel = options.showActions && actionPanel ? actionPanelHtml(actionPanel) : "";
  return `<div class="raycast">${search}${body}${bar}${panel}</div>`;
}

function sectionHtml(section: Node, selected: Node | undefined): string {
  const { title, subtitle } = section.props as Props;
  const rows = kids(section)
    .filter((k) => k.type === "List.Item")
    .map((k) => rowHtml(k, k === selected))
    .join("");
  const sub = subtitle ? ` <span class="section-subtitle">${escapeHtml(String(subtitle))}</span>` : "";
  return rows ? `${title ? `<div class="section-title">${escapeHtml(String(title))}${sub}</div>` : ""}${rows}` : "";
}

function rowHtml(item: Node, selected: boolean): string {
  const p = item.props as Props;
  const accessories = ((p.accessories as Props[] | undefined) ?? []).map(accessoryHtml).join("");
  // title and subtitle share what the accessories leave; the subtitle gives way first, as in Raycast
  return `<div class="row${selected ? " selected" : ""}"><span class="row-icon">${iconHtml(p.icon, 18)}</span><span class="row-text"><span class="row-title">${escapeHtml(
    String(p.title ?? ""),
  )}</span>${p.subtitle ? `<span class="row-subtitle">${escapeHtml(String(p.subtitle))}</span>` : ""}</span><span class="accessories">${accessories}</span></div>`;
}

function accessoryHtml(a: Props): string {
  const icon = a.icon ? iconHtml(a.icon, 13, "#8E8E93") : "";
  if (a.tag !== undefined) {
    const { text, color } = textOf(a.tag);
    const c = color ?? "#8E8E93";
    return `<span class="tag" style="color:${c};background:${c}26">${icon}${escapeHtml(text)}</span>`;
  }
  const { text, color } = textOf(a.text);
  return `<span class="accessory"${color ? ` style="color:${color}"` : ""}>${icon}${text ? `<span>${escapeHtml(text)}</span>` : ""}</span>`;
}

function detailHtml(detail: Node | undefined): string {
  if (!detail) return "";
  const p = detail.props as Props;
  const markdown = typeof p.markdown === "string" ? `<div class="markdown">${markdownToHtml(p.markdown)}</div>` : "";
  const metadata = slot(detail, "metadata");
  return markdown + (metadata ? `<div class="metadata">${kids(metadata).map(metadataHtml).join("")}</div>` : "");
}

function metadataHtml(node: Node): string {
  const p = node.props as Props;
  const title = `<span class="meta-title">${escapeHtml(String(p.title ?? ""))}</span>`;
  switch (node.type) {
    case "Metadata.Separator":
      return `<div class="meta-separator"></div>`;
    case "Metadata.Link":
      return `<div class="meta-row">${title}<span class="meta-link">${escapeHtml(String(p.text ?? ""))}</span></div>`;
    case "Metadata.TagList":
      return `<div class="meta-row">${title}<span class="meta-tags">${kids(node)
        .map((tag) => {
          const t = tag.props as Props;
          const c = colorOf(t.color) ?? "#8E8E93";
          return `<span class="tag" style="color:${c};background:${c}26">${escapeHtml(String(t.text ?? ""))}</span>`;
        })
        .join("")}</span></div>`;
    default: {
      const { text, color } = textOf(p.text);
      return `<div class="meta-row">${title}<span class="meta-text"${color ? ` style="color:${color}"` : ""}>${escapeHtml(text)}</span></div>`;
    }
  }
}

const ACTION_TYPES = new Set(["Action", "Action.OpenInBrowser", "Action.CopyToClipboard", "Action.Push"]);

function actionNodes(panel: Node): Node[] {
  const found: Node[] = [];
  const walk = (n: Node) => {
    if (ACTION_TYPES.has(n.type)) found.push(n);
    kids(n).forEach(walk);
  };
  walk(panel);
  return found;
}

const DEFAULT_ACTION_ICONS: Record<string, string> = { "Action.OpenInBrowser": "Globe", "Action.CopyToClipboard": "CopyClipboard" };

function actionPanelHtml(panel: Node): string {
  const sections = kids(panel).filter((k) => k.type === "ActionPanel.Section");
  const groups = (sections.length > 0 ? sections : [panel]).map((s) => actionNodes(s)).filter((g) => g.length > 0);
  let first = true;
  const html = groups
    .map((group) =>
      group
        .map((action) => {
          const p = action.props as Props;
          const key = first ? "↵" : p.shortcut ? shortcutText(p.shortcut) : "";
          const row = `<div class="action${first ? " selected" : ""}"><span class="action-icon">${iconHtml(p.icon ?? DEFAULT_ACTION_ICONS[action.type] ?? "Circle", 15)}</span><span>${escapeHtml(
            String(p.title ?? ""),
          )}</span>${key ? `<span class="action-key">${key}</span>` : ""}</div>`;
          first = false;
          return row;
        })
        .join(""),
    )
    .join(`<div class="action-separator"></div>`);
  const title = (panel.props as Props).title;
  return `<div class="action-panel">${title ? `<div class="action-panel-title">${escapeHtml(String(title))}</div>` : ""}${html}<div class="action-search">Search for actions…</div></div>`;
}

// ------------------------------------------------------------------ detail (the Copilot sign-in)

export function detailToHtml(tree: Node, options: { navigationTitle: string }): string {
  const detail = find(tree, "Detail")[0];
  if (!detail) throw new Error("no Detail in the tree");
  const p = detail.props as Props;
  const metadata = slot(detail, "metadata");
  const panel = slot(detail, "actions");
  const actions = panel ? actionNodes(panel) : [];
  const primary = actions[0] ? String((actions[0].props as Props).title ?? "") : "";
  const top = `<div class="navigation"><span class="back">←</span><span>${escapeHtml(options.navigationTitle)}</span>${p.isLoading ? `<div class="loading-bar"></div>` : ""}</div>`;
  const body = `<div class="panes"><div class="markdown detail-markdown">${markdownToHtml(String(p.markdown ?? ""))}</div>${
    metadata ? `<div class="detail-metadata">${kids(metadata).map(metadataHtml).join("")}</div>` : ""
  }</div>`;
  const bar = `<div class="action-bar"><span class="command-title">${glyph("Person", "#8E8E93", 14)} ${escapeHtml(options.navigationTitle)}</span><span class="action-bar-right">${
    primary ? `<span class="primary-action">${escapeHtml(primary)} <kbd>↵</kbd></span><span class="bar-divider"></span>` : ""
  }<span class="actions-hint">Actions <kbd>⌘</kbd><kbd>K</kbd></span></span></div>`;
  return `<div class="raycast">${top}${body}${bar}</div>`;
}
