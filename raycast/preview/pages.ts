/** Page templates of the preview: a macOS desktop with the open menu, the Raycast window, the icon, an index. */
import { glyph } from "./glyphs.js";
import { escapeHtml } from "./markdown.js";
import type { MenuBarHtml } from "./tree-to-html.js";

/** 1000×625 CSS pixels at device scale 2: the 2000×1250 PNG the Raycast Store asks for. */
export const PAGE = { width: 1000, height: 625, scale: 2 };

const FONT = `"Inter", "SF Pro Text", -apple-system, "Helvetica Neue", sans-serif`;

const BASE_CSS = `
* { box-sizing: border-box; }
html, body { margin: 0; width: ${PAGE.width}px; height: ${PAGE.height}px; overflow: hidden; font-family: ${FONT}; -webkit-font-smoothing: antialiased; }
.glyph { flex: none; display: inline-block; vertical-align: middle; }
.icon { flex: none; display: inline-block; vertical-align: middle; }
.wallpaper { position: absolute; inset: 0; background:
  radial-gradient(ellipse at 18% 85%, #f08a5d 0%, transparent 48%),
  radial-gradient(ellipse at 85% 20%, #6a5acd 0%, transparent 55%),
  radial-gradient(ellipse at 55% 60%, #b83b5e 0%, transparent 60%),
  linear-gradient(135deg, #2b2d6e 0%, #5b2a86 45%, #c2456e 100%); }
`;

const MENU_CSS = `
.menubar { position: absolute; top: 0; left: 0; right: 0; height: 28px; display: flex; align-items: center; padding: 0 10px;
  background: rgba(246, 240, 250, 0.62); backdrop-filter: blur(30px); color: #1d1d1f; font-size: 13.5px; }
.menubar .left { display: flex; gap: 19px; align-items: center; }
.menubar .left b { font-weight: 700; }
.menubar .right { margin-left: auto; display: flex; gap: 16px; align-items: center; }
.status-item { display: flex; align-items: center; gap: 5px; padding: 2px 8px; border-radius: 5px; background: rgba(0, 0, 0, 0.13); font-weight: 500; font-variant-numeric: tabular-nums; }
.menu { position: absolute; top: 32px; min-width: 300px; max-width: 600px; padding: 5px; border-radius: 10px; background: rgba(238, 236, 242, 0.86);
  backdrop-filter: blur(40px); box-shadow: 0 14px 44px rgba(0, 0, 0, 0.34), 0 0 0 0.5px rgba(0, 0, 0, 0.28); font-size: 13px; color: #1d1d1f; }
.menu-header { padding: 6px 10px 2px; font-size: 11.5px; font-weight: 650; color: rgba(0, 0, 0, 0.5); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.menu-item { display: flex; align-items: center; gap: 7px; height: 22px; padding: 0 10px; border-radius: 5px; white-space: nowrap; }
.menu-item.disabled .menu-title { color: rgba(0, 0, 0, 0.82); }
.menu-item.hover { background: #2f7cf6; color: white; }
.menu-item.hover .menu-subtitle, .menu-item.hover .menu-shortcut { color: rgba(255, 255, 255, 0.85); }
.menu-icon { width: 16px; height: 16px; display: flex; align-items: center; justify-content: center; color: #3a3a3c; }
.menu-title { flex: none; }
.menu-subtitle { color: rgba(0, 0, 0, 0.48); }
.menu-shortcut { margin-left: auto; padding-left: 16px; color: rgba(0, 0, 0, 0.45); letter-spacing: 1px; }
.menu-separator { height: 1px; margin: 5px 10px; background: rgba(0, 0, 0, 0.12); }
.caption { position: absolute; left: 40px; bottom: 36px; color: white; max-width: 470px; text-shadow: 0 1px 12px rgba(0,0,0,0.35); }
.caption h1 { font-size: 30px; margin: 0 0 8px; font-weight: 700; letter-spacing: -0.4px; }
.caption p { font-size: 15px; margin: 0; opacity: 0.9; line-height: 1.45; }
`;

const LIST_CSS = `
.window { position: absolute; left: 50%; top: 50%; width: 820px; height: 520px; transform: translate(-50%, -50%); border-radius: 13px; overflow: hidden;
  box-shadow: 0 30px 80px rgba(0, 0, 0, 0.5), 0 0 0 0.5px rgba(255, 255, 255, 0.18); }
.raycast { position: relative; width: 100%; height: 100%; display: flex; flex-direction: column; background: rgba(28, 28, 31, 0.97); color: #ECECEC; font-size: 13.5px; }
.search { position: relative; height: 58px; flex: none; display: flex; align-items: center; padding: 0 20px; border-bottom: 1px solid rgba(255, 255, 255, 0.08); font-size: 17px; }
.search-text { color: rgba(255, 255, 255, 0.36); }
.loading-bar { position: absolute; left: 0; bottom: -1px; height: 1px; width: 40%; background: linear-gradient(90deg, transparent, #ff6363, transparent); }
.panes { flex: 1; display: flex; min-height: 0; }
.rows { flex: 1; padding: 6px 8px; overflow: hidden; }
.panes.with-detail .rows { flex: none; width: 41%; }
.section-title { padding: 9px 10px 5px; font-size: 11.5px; font-weight: 600; color: rgba(255, 255, 255, 0.45); }
.section-subtitle { margin-left: 6px; font-weight: 400; color: rgba(255, 255, 255, 0.32); }
.row { display: flex; align-items: center; gap: 10px; height: 40px; padding: 0 10px; border-radius: 8px; white-space: nowrap; overflow: hidden; }
.row.selected { background: rgba(255, 255, 255, 0.1); }
.row-icon { flex: none; width: 20px; height: 20px; display: flex; align-items: center; justify-content: center; color: #C8C8CC; }
.row-text { flex: 1 1 auto; min-width: 0; display: flex; align-items: baseline; gap: 10px; overflow: hidden; }
.row-title { font-weight: 500; flex: none; max-width: 100%; overflow: hidden; text-overflow: ellipsis; }
.row-subtitle { color: rgba(255, 255, 255, 0.45); flex: 0 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; }
.accessories { margin-left: auto; display: flex; gap: 9px; align-items: center; flex: none; padding-left: 8px; color: rgba(255, 255, 255, 0.55); font-variant-numeric: tabular-nums; }
.accessory { display: flex; gap: 4px; align-items: center; }
.tag { display: inline-flex; gap: 4px; align-items: center; padding: 1px 7px; border-radius: 5px; font-size: 12px; font-weight: 500; }
.detail { flex: 1; border-left: 1px solid rgba(255, 255, 255, 0.08); display: flex; flex-direction: column; min-width: 0; }
.markdown { flex: 1; padding: 6px 22px 10px; overflow: hidden; line-height: 1.45; }
.markdown h2 { font-size: 19px; margin: 12px 0 4px; }
.markdown h3 { font-size: 14px; margin: 14px 0 4px; }
.markdown p { margin: 5px 0; color: rgba(255, 255, 255, 0.86); }
.markdown code { font-family: "DejaVu Sans Mono", Menlo, monospace; font-size: 11.5px; color: #ECECEC; background: rgba(255, 255, 255, 0.08); padding: 2px 5px; border-radius: 4px; letter-spacing: -0.5px; }
.markdown em { color: rgba(255, 255, 255, 0.55); }
.markdown blockquote { margin: 10px 0; padding: 4px 12px; border-left: 3px solid #FF8A4C; background: rgba(255, 138, 76, 0.08); border-radius: 0 6px 6px 0; }
.markdown ul { margin: 6px 0; padding-left: 20px; color: rgba(255, 255, 255, 0.8); }
.markdown img { display: block; max-width: 100%; }
.metadata { flex: none; max-height: 56%; overflow: hidden; border-top: 1px solid rgba(255, 255, 255, 0.08); padding: 6px 22px 8px; font-size: 12.5px; }
.meta-row { display: flex; align-items: center; min-height: 25px; gap: 12px; }
.meta-title { color: rgba(255, 255, 255, 0.5); flex: none; }
.meta-text, .meta-link, .meta-tags { margin-left: auto; text-align: right; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
.meta-link { color: #56C2FF; }
.meta-separator { height: 1px; margin: 4px 0; background: rgba(255, 255, 255, 0.08); }
.empty { flex: 1; display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 10px; padding: 0 110px; text-align: center; }
.empty-title { font-size: 16px; font-weight: 600; }
.empty-description { color: rgba(255, 255, 255, 0.5); line-height: 1.5; }
.action-bar { height: 42px; flex: none; display: flex; align-items: center; padding: 0 14px; border-top: 1px solid rgba(255, 255, 255, 0.08); background: rgba(255, 255, 255, 0.03); font-size: 12.5px; color: rgba(255, 255, 255, 0.55); }
.command-title { display: flex; align-items: center; gap: 7px; }
.action-bar-right { margin-left: auto; display: flex; align-items: center; gap: 10px; }
.primary-action { color: #ECECEC; font-weight: 500; }
.bar-divider { width: 1px; height: 14px; background: rgba(255, 255, 255, 0.15); }
kbd { font-family: ${FONT}; display: inline-block; min-width: 19px; padding: 1px 4px; margin-left: 2px; border-radius: 4px; background: rgba(255, 255, 255, 0.1); text-align: center; font-size: 11.5px; color: rgba(255, 255, 255, 0.7); }
.action-panel { position: absolute; z-index: 10; right: 12px; bottom: 50px; width: 330px; padding: 6px; border-radius: 11px; background: rgb(44, 44, 48);
  box-shadow: 0 16px 50px rgba(0, 0, 0, 0.55), 0 0 0 0.5px rgba(255, 255, 255, 0.16); }
.action-panel-title { padding: 6px 10px 4px; font-size: 11.5px; color: rgba(255, 255, 255, 0.45); font-weight: 600; }
.action { display: flex; align-items: center; gap: 10px; height: 32px; padding: 0 10px; border-radius: 7px; }
.action.selected { background: rgba(255, 255, 255, 0.1); }
.action-icon { width: 16px; display: flex; color: #C8C8CC; }
.action-key { margin-left: auto; color: rgba(255, 255, 255, 0.45); letter-spacing: 1px; font-size: 12px; }
.action-separator { height: 1px; margin: 4px 8px; background: rgba(255, 255, 255, 0.08); }
.navigation { position: relative; height: 50px; flex: none; display: flex; align-items: center; gap: 12px; padding: 0 18px; border-bottom: 1px solid rgba(255, 255, 255, 0.08); font-size: 14px; font-weight: 500; }
.back { display: inline-flex; width: 26px; height: 26px; align-items: center; justify-content: center; border-radius: 6px; background: rgba(255, 255, 255, 0.08); color: rgba(255, 255, 255, 0.7); }
.detail-markdown { padding: 14px 28px; }
.detail-markdown h1 { font-size: 22px; margin: 10px 0 8px; }
.detail-markdown h1 code { font-size: 30px; letter-spacing: 3px; padding: 6px 14px; }
.detail-metadata { flex: none; width: 290px; padding: 14px 20px; border-left: 1px solid rgba(255, 255, 255, 0.08); font-size: 12.5px; }
.action-search { margin-top: 6px; padding: 8px 10px 4px; border-top: 1px solid rgba(255, 255, 255, 0.08); color: rgba(255, 255, 255, 0.32); }
`;

function page(title: string, css: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${BASE_CSS}${css}</style></head><body>${body}</body></html>`;
}

const APPLE = `<svg width="14" height="16" viewBox="0 0 14 17"><path fill="#1d1d1f" d="M11.6 9c0-2 1.6-3 1.7-3-1-1.4-2.4-1.6-2.9-1.6-1.2-.1-2.4.7-3 .7-.6 0-1.6-.7-2.6-.7C3.4 4.5 2 5.3 1.3 6.6c-1.5 2.6-.4 6.4 1 8.5.7 1 1.5 2.1 2.6 2.1 1 0 1.4-.7 2.6-.7s1.6.7 2.6.6c1.1 0 1.8-1 2.5-2 .8-1.1 1.1-2.2 1.1-2.3 0 0-2.1-.8-2.1-3.8ZM9.7 3c.5-.7.9-1.6.8-2.5-.8 0-1.8.5-2.3 1.2-.5.6-1 1.5-.8 2.4.9.1 1.8-.4 2.3-1.1Z"/></svg>`;

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The menu bar's clock as macOS writes it ("Thu Nov 26  10:45 PM"), at the screenshots' time (UTC, as their other times). */
export function menuBarClock(at: Date): string {
  const hours = at.getUTCHours();
  const minutes = String(at.getUTCMinutes()).padStart(2, "0");
  return `${DAYS[at.getUTCDay()]} ${MONTHS[at.getUTCMonth()]} ${at.getUTCDate()}&nbsp;&nbsp;${hours % 12 || 12}:${minutes} ${hours < 12 ? "AM" : "PM"}`;
}

/** The macOS desktop with the menu-bar item open, its clock at `at`. */
export function menuBarPage(title: string, menu: MenuBarHtml, caption: { heading: string; text: string }, at: Date): string {
  const wifi = `<svg width="17" height="13" viewBox="0 0 17 13"><path d="M8.5 12.5 6.3 10a3 3 0 0 1 4.4 0Z M3.6 7.3a7 7 0 0 1 9.8 0l-1.3 1.4a5.1 5.1 0 0 0-7.2 0Z M.8 4.4a11 11 0 0 1 15.4 0l-1.3 1.4a9.2 9.2 0 0 0-12.8 0Z" fill="#1d1d1f"/></svg>`;
  const battery = `<svg width="27" height="13" viewBox="0 0 27 13"><rect x=".5" y=".5" width="23" height="12" rx="3.5" fill="none" stroke="#1d1d1f" opacity=".45"/><rect x="2" y="2" width="17" height="9" rx="2" fill="#1d1d1f"/><path d="M25 4.5v4a2 2 0 0 0 0-4Z" fill="#1d1d1f" opacity=".45"/></svg>`;
  const body = `<div class="wallpaper"></div>
<div class="menubar"><div class="left">${APPLE}<b>Finder</b><span>File</span><span>Edit</span><span>View</span><span>Go</span><span>Window</span><span>Help</span></div>
<div class="right"><span class="status-item" id="item">${menu.item}</span>${glyph("MagnifyingGlass", "#1d1d1f", 15)}${wifi}${battery}<span>${menuBarClock(at)}</span></div></div>
<div class="menu" id="menu">${menu.menu}</div>
<div class="caption"><h1>${escapeHtml(caption.heading)}</h1><p>${escapeHtml(caption.text)}</p></div>
<script>
  // place the menu under its status item, as macOS does, keeping it on screen
  const item = document.getElementById("item").getBoundingClientRect();
  const menu = document.getElementById("menu");
  menu.style.left = Math.min(item.left - 5, ${PAGE.width} - menu.offsetWidth - 8) + "px";
</script>`;
  return page(title, MENU_CSS, body);
}

/** The Raycast window over the wallpaper. */
export function listPage(title: string, raycast: string): string {
  return page(title, LIST_CSS, `<div class="wallpaper"></div><div class="window">${raycast}</div>`);
}

/** The extension icon: a rounded square with a usage ring and a bar (512×512). */
export function iconPage(theme: "light" | "dark"): string {
  const bg = theme === "light" ? "linear-gradient(160deg, #ffffff 0%, #e9e7f2 100%)" : "linear-gradient(160deg, #34323d 0%, #17161c 100%)";
  const track = theme === "light" ? "rgba(40, 30, 80, 0.12)" : "rgba(255, 255, 255, 0.16)";
  const ink = theme === "light" ? "#2b2360" : "#f3f1ff";
  const svg = `<svg width="512" height="512" viewBox="0 0 512 512" xmlns="http://www.w3.org/2000/svg">
  <defs><linearGradient id="arc" x1="1" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#59D499"/><stop offset=".42" stop-color="#59D499"/><stop offset=".72" stop-color="#FFC531"/><stop offset="1" stop-color="#FF6363"/></linearGradient></defs>
  <circle cx="256" cy="236" r="132" fill="none" stroke="${track}" stroke-width="44"/>
  <circle cx="256" cy="236" r="132" fill="none" stroke="url(#arc)" stroke-width="44" stroke-linecap="round" stroke-dasharray="${(2 * Math.PI * 132 * 0.72).toFixed(1)} 1000" transform="rotate(-90 256 236)"/>
  <rect x="150" y="404" width="212" height="26" rx="13" fill="${track}"/><rect x="150" y="404" width="132" height="26" rx="13" fill="${ink}"/>
  <text x="256" y="262" text-anchor="middle" font-family="Inter, sans-serif" font-weight="800" font-size="78" fill="${ink}">72%</text></svg>`;
  const css = `html, body { width: 512px; height: 512px; background: transparent; }
.tile { position: absolute; inset: 28px; border-radius: 104px; background: ${bg}; box-shadow: 0 10px 24px rgba(0,0,0,0.18), inset 0 0 0 1px rgba(${theme === "light" ? "0,0,0,0.06" : "255,255,255,0.08"}); overflow: hidden; }
.tile svg { position: absolute; left: -28px; top: -28px; }`;
  return `<!doctype html><html><head><meta charset="utf-8"><style>${css}</style></head><body style="margin:0"><div class="tile">${svg}</div></body></html>`;
}

/** preview-out/index.html: every screenshot with its scenario. */
export function indexPage(entries: { scenario: string; title: string; files: string[] }[]): string {
  const css = `html, body { width: auto; height: auto; overflow: auto; background: #1b1b1f; color: #eee; padding: 20px 32px; }
section { margin-bottom: 36px; } img { width: 900px; display: block; margin: 10px 0; border-radius: 8px; } h2 { margin: 0 0 4px; }`;
  const body = entries
    .map(
      (e) =>
        `<section><h2>${escapeHtml(e.title)}</h2><code>${escapeHtml(e.scenario)}</code>${e.files.map((f) => `<img src="${escapeHtml(f)}" alt="${escapeHtml(f)}">`).join("")}</section>`,
    )
    .join("");
  return `<!doctype html><html><head><meta charset="utf-8"><title>Quotabar Raycast preview</title><style>${BASE_CSS}${css}</style></head><body><h1>Quotabar for Raycast: preview</h1>${body}</body></html>`;
}
