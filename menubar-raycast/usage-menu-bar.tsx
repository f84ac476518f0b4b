import { Icon, launchCommand, LaunchType, MenuBarExtra, openExtensionPreferences, type Image } from "@raycast/api";
import { COMMANDS, launchSignIn, runItemAction } from "../raycast/shared/actions.js";
import { signInProviders } from "../raycast/shared/remedy-view.js";
import { progressIcon, symbolIcon } from "../raycast/shared/ui.js";
import type { MenuBarModel, MenuIcon } from "./menu-bar-model.js";

export interface UsageMenuBarProps {
  model: MenuBarModel;
  isLoading: boolean;
  /** A fetch that failed as a whole (e.g. an unreadable shared config file). */
  error?: Error | undefined;
  onRefresh: () => void;
}

function menuIcon(icon: MenuIcon): Image.ImageLike {
  return icon.kind === "progress" ? progressIcon(icon.progress, icon.tone) : symbolIcon(icon.symbol, icon.tone);
}

/** The menu-bar item: a progress ring and the headline percent; one section per enabled provider. */
export function UsageMenuBar({ model, isLoading, error, onRefresh }: UsageMenuBarProps) {
  return (
    <MenuBarExtra
      icon={progressIcon(model.icon.progress, model.icon.tone, model.icon.incident)}
      title={model.title}
      tooltip={model.tooltip}
      isLoading={isLoading}
    >
      {error ? (
        <MenuBarExtra.Section>
          <MenuBarExtra.Item title={error.message} icon={Icon.Warning} onAction={() => openExtensionPreferences()} />
        </MenuBarExtra.Section>
      ) : null}
      {model.sections.length === 0 && !isLoading ? (
        <MenuBarExtra.Section title="No provider set up">
          <MenuBarExtra.Item title="Add an API Key in Preferences…" icon={Icon.Key} onAction={() => openExtensionPreferences()} />
          {signInProviders().map(({ provider, title }) => (
            <MenuBarExtra.Item key={provider} title={`${title}…`} icon={Icon.Person} onAction={() => launchSignIn(provider)} />
          ))}
        </MenuBarExtra.Section>
      ) : null}
      {model.sections.map((section) => (
        <MenuBarExtra.Section key={section.id} title={section.title}>
          {section.items.map((item, index) => (
            <MenuBarExtra.Item
              key={`${section.id}-${index}`}
              title={item.title}
              {...(item.subtitle ? { subtitle: item.subtitle } : {})}
              {...(item.tooltip ? { tooltip: item.tooltip } : {})}
              icon={menuIcon(item.icon)}
              {...(item.action ? { onAction: () => runItemAction(item.action!) } : {})}
            />
          ))}
        </MenuBarExtra.Section>
      ))}
      <MenuBarExtra.Section>
        <MenuBarExtra.Item title="Refresh" icon={Icon.ArrowClockwise} shortcut={{ modifiers: ["cmd"], key: "r" }} onAction={onRefresh} />
        <MenuBarExtra.Item
          title="Show Usage"
          icon={Icon.List}
          shortcut={{ modifiers: ["cmd"], key: "l" }}
          onAction={() => launchCommand({ name: COMMANDS.list, type: LaunchType.UserInitiated })}
        />
        <MenuBarExtra.Item
          title="Configure…"
          icon={Icon.Gear}
          shortcut={{ modifiers: ["cmd"], key: "," }}
          onAction={() => openExtensionPreferences()}
        />
      </MenuBarExtra.Section>
    </MenuBarExtra>
  );
}
