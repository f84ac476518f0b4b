import type { UsageDocument } from "../../../domain/usage-document.js";
import type { BarOptions } from "./bar-view.js";
import { renderI3blocks } from "./i3blocks.js";
import { renderPolybar } from "./polybar.js";
import { renderSwiftBar } from "./swiftbar.js";
import { renderBarText } from "./text.js";
import { renderTmux } from "./tmux.js";
import { renderWaybar } from "./waybar.js";

/** `quotabar bar --format <name>`: each a pure renderer of the usage document. SwiftBar and xbar share one plugin format. */
export const BAR_FORMATS = {
  waybar: renderWaybar,
  i3blocks: renderI3blocks,
  polybar: renderPolybar,
  tmux: renderTmux,
  swiftbar: renderSwiftBar,
  xbar: renderSwiftBar,
  text: renderBarText,
} satisfies Record<string, (doc: UsageDocument, options: BarOptions) => string>;

export type BarFormat = keyof typeof BAR_FORMATS;
export const BAR_FORMAT_NAMES = Object.keys(BAR_FORMATS) as BarFormat[];
