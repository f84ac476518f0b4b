/**
 * A small test double of `@raycast/api` (which has no runtime outside Raycast). Components become
 * host elements named like the API ("List.Item", "MenuBarExtra.Section"), so react-test-renderer
 * gives a tree to assert on and the preview turns it into HTML. Element-valued props (`actions`,
 * `detail`, `metadata`) are rendered as `slot` children so their Actions can be found and run.
 * Side effects (open, launchCommand, toasts, clipboard) are recorded in `raycastCalls`.
 */
import { createElement, type ReactNode } from "react";

export interface RecordedCall {
  name: string;
  args: unknown[];
}

export const raycastCalls: RecordedCall[] = [];
const record =
  (name: string) =>
  async (...args: unknown[]): Promise<void> => {
    raycastCalls.push({ name, args });
  };

const SLOTS = ["actions", "detail", "metadata"] as const;

function host(name: string) {
  const component = (props: Record<string, unknown> & { children?: ReactNode }) => {
    const { children, ...rest } = props;
    const slots: ReactNode[] = [];
    for (const slot of SLOTS) {
      if (rest[slot] !== undefined && rest[slot] !== null && typeof rest[slot] === "object") {
        slots.push(createElement("slot", { key: `slot-${slot}`, name: slot }, rest[slot] as ReactNode));
        delete rest[slot];
      }
    }
    return createElement(name, rest, ...slots, children);
  };
  component.displayName = name;
  return component;
}

export const MenuBarExtra = Object.assign(host("MenuBarExtra"), {
  Item: host("MenuBarExtra.Item"),
  Section: host("MenuBarExtra.Section"),
  Submenu: host("MenuBarExtra.Submenu"),
  Separator: host("MenuBarExtra.Separator"),
});

const Metadata = Object.assign(host("Metadata"), {
  Label: host("Metadata.Label"),
  Link: host("Metadata.Link"),
  Separator: host("Metadata.Separator"),
  TagList: Object.assign(host("Metadata.TagList"), { Item: host("Metadata.TagList.Item") }),
});

export const List = Object.assign(host("List"), {
  Item: Object.assign(host("List.Item"), { Detail: Object.assign(host("List.Item.Detail"), { Metadata }) }),
  Section: host("List.Section"),
  EmptyView: host("List.EmptyView"),
  Dropdown: host("List.Dropdown"),
});

export const Detail = Object.assign(host("Detail"), { Metadata });

export const ActionPanel = Object.assign(host("ActionPanel"), {
  Section: host("ActionPanel.Section"),
  Submenu: host("ActionPanel.Submenu"),
});

export const Action = Object.assign(host("Action"), {
  OpenInBrowser: host("Action.OpenInBrowser"),
  CopyToClipboard: host("Action.CopyToClipboard"),
  Push: host("Action.Push"),
});

/** `Icon.Warning` is "Warning": readable in assertions and mapped to glyphs by the preview. */
/** The shortcuts Raycast names (what `Keyboard.Shortcut.Common.*` stands for on macOS). */
export const Keyboard = {
  Shortcut: {
    Common: {
      Open: { modifiers: ["cmd"], key: "o" },
      Copy: { modifiers: ["cmd", "shift"], key: "c" },
      Refresh: { modifiers: ["cmd"], key: "r" },
    },
  },
} as const;

export const Icon = new Proxy({} as Record<string, string>, { get: (_, key) => String(key) });

export enum Color {
  Blue = "raycast-blue",
  Green = "raycast-green",
  Magenta = "raycast-magenta",
  Orange = "raycast-orange",
  Purple = "raycast-purple",
  Red = "raycast-red",
  Yellow = "raycast-yellow",
  PrimaryText = "raycast-primary-text",
  SecondaryText = "raycast-secondary-text",
}

export enum LaunchType {
  UserInitiated = "userInitiated",
  Background = "background",
}

export const environment = {
  appearance: "light" as "light" | "dark",
  launchType: LaunchType.UserInitiated as LaunchType,
  commandName: "show-usage",
  commandMode: "view",
  extensionName: "quotabar",
  isDevelopment: true,
  raycastVersion: "1.104.0",
  supportPath: "/tmp/quotabar-raycast-double",
  assetsPath: "/tmp/quotabar-raycast-double/assets",
  textSize: "medium",
  canAccess: () => true,
};

export const preferenceValues: Record<string, unknown> = {};
export function getPreferenceValues<T>(): T {
  return { ...preferenceValues } as T;
}

const localItems = new Map<string, string | number | boolean>();
export const LocalStorage = {
  async getItem<T extends string | number | boolean>(key: string): Promise<T | undefined> {
    return localItems.get(key) as T | undefined;
  },
  async setItem(key: string, value: string | number | boolean): Promise<void> {
    localItems.set(key, value);
  },
  async removeItem(key: string): Promise<void> {
    localItems.delete(key);
  },
  async allItems(): Promise<Record<string, string | number | boolean>> {
    return Object.fromEntries(localItems);
  },
  async clear(): Promise<void> {
    localItems.clear();
  },
};

const cacheItems = new Map<string, string>();
export class Cache {
  private readonly prefix: string;
  constructor(options: { namespace?: string } = {}) {
    this.prefix = options.namespace ? `${options.namespace}/` : "";
  }
  get(key: string): string | undefined {
    return cacheItems.get(this.prefix + key);
  }
  has(key: string): boolean {
    return cacheItems.has(this.prefix + key);
  }
  set(key: string, data: string): void {
    cacheItems.set(this.prefix + key, data);
  }
  remove(key: string): boolean {
    return cacheItems.delete(this.prefix + key);
  }
  clear(): void {
    for (const key of [...cacheItems.keys()]) if (key.startsWith(this.prefix)) cacheItems.delete(key);
  }
}

enum ToastStyle {
  Success = "SUCCESS",
  Failure = "FAILURE",
  Animated = "ANIMATED",
}
export class Toast {
  static Style = ToastStyle;
}

export const showToast = record("showToast");
export const showHUD = record("showHUD");
export const open = record("open");
export const openExtensionPreferences = record("openExtensionPreferences");
export const openCommandPreferences = record("openCommandPreferences");
export const launchCommand = record("launchCommand");
export const updateCommandMetadata = record("updateCommandMetadata");
export const Clipboard = { copy: record("Clipboard.copy"), paste: record("Clipboard.paste") };

/** Referenced by the real `@raycast/utils` (bundled into the commands); unused by Quotabar. */
export const AI = { ask: async () => "", Model: {} };
export const OAuth = { PKCEClient: class {}, RedirectMethod: { Web: "web", App: "app", AppURI: "appURI" } };

/** Forget everything between tests. */
export function resetRaycastDouble(): void {
  raycastCalls.length = 0;
  localItems.clear();
  cacheItems.clear();
  for (const key of Object.keys(preferenceValues)) delete preferenceValues[key];
  environment.launchType = LaunchType.UserInitiated;
  environment.appearance = "light";
}
