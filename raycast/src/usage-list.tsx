import { Action, ActionPanel, Icon, Keyboard, List, openExtensionPreferences } from "@raycast/api";
import { DESCRIPTORS } from "../../providers/registry.js";
import { launchSignIn, refreshSessionNow } from "../shared/actions.js";
import { canRead } from "../shared/coming-soon.js";
import { signInProviders } from "../shared/remedy-view.js";
import { progressIcon, symbolIcon, TONE_COLOR } from "../shared/ui.js";
import type { AccessoryModel, ListModel, ListRowModel, MetadataModel } from "./list-model.js";

export interface UsageListProps {
  model: ListModel;
  isLoading: boolean;
  onRefresh: () => void;
}

/** Who takes a key, and who signs in, from the registry: "paste a key for OpenRouter, z.ai, …, or run “Sign In to …”". */
const EMPTY_DESCRIPTION = (() => {
  const keyed = DESCRIPTORS.filter((d) => canRead(d.id) && !d.signIn && d.settings?.some((s) => s.field === "apiKey")).map((d) => d.name);
  const names = keyed.length > 1 ? `${keyed.slice(0, -1).join(", ")} or ${keyed.at(-1)}` : keyed.join("");
  const signIns = signInProviders().map(({ title }) => `, or run “${title}”`);
  return `Open Preferences (⌘,) and paste a key for ${names}${signIns.join("")}. Quotabar can also share the quotabar CLI's config.json.`;
})();

/** One row per provider, enabled ones first, with a detail pane; an empty view for a new user. */
export function UsageList({ model, isLoading, onRefresh }: UsageListProps) {
  const nothingEnabled = model.enabled.length === 0;
  return (
    <List isLoading={isLoading} isShowingDetail={!nothingEnabled} searchBarPlaceholder="Search providers and plans">
      {nothingEnabled ? (
        isLoading ? null : (
          <List.EmptyView
            icon={Icon.Key}
            title="Add an API Key to Get Started"
            description={EMPTY_DESCRIPTION}
            actions={
              <ActionPanel>
                <Action title="Open Preferences" icon={Icon.Gear} onAction={() => openExtensionPreferences()} />
                {signInProviders().map(({ provider, title }) => (
                  <Action key={provider} title={title} icon={Icon.Person} onAction={() => launchSignIn(provider)} />
                ))}
                <Action title="Refresh" icon={Icon.ArrowClockwise} onAction={onRefresh} />
              </ActionPanel>
            }
          />
        )
      ) : (
        <>
          <List.Section title="Enabled">
            {model.enabled.map((row) => (
              <ProviderRow key={row.id} row={row} onRefresh={onRefresh} />
            ))}
          </List.Section>
          <List.Section title="Not Set Up">
            {model.notSetUp.map((row) => (
              <ProviderRow key={row.id} row={row} onRefresh={onRefresh} />
            ))}
          </List.Section>
          {model.comingSoon.length > 0 ? (
            <List.Section title="Coming Soon" subtitle="Not read by this version yet">
              {model.comingSoon.map((row) => (
                <ProviderRow key={row.id} row={row} onRefresh={onRefresh} />
              ))}
            </List.Section>
          ) : null}
        </>
      )}
    </List>
  );
}

function ProviderRow({ row, onRefresh }: { row: ListRowModel; onRefresh: () => void }) {
  const icon = row.icon.kind === "progress" ? progressIcon(row.icon.progress, row.icon.tone) : symbolIcon(row.icon.symbol, row.icon.tone);
  return (
    <List.Item
      id={row.id}
      title={row.title}
      subtitle={row.subtitle}
      keywords={row.keywords}
      icon={icon}
      accessories={row.accessories.map(accessoryOf)}
      detail={
        <List.Item.Detail markdown={row.markdown} {...(row.metadata.length > 0 ? { metadata: <Metadata items={row.metadata} /> } : {})} />
      }
      actions={<RowActions row={row} onRefresh={onRefresh} />}
    />
  );
}

function RowActions({ row, onRefresh }: { row: ListRowModel; onRefresh: () => void }) {
  if (row.comingSoon) {
    // nothing to set up, refresh or copy yet: only the provider's own pages
    return (
      <ActionPanel title={row.title}>
        {row.dashboardUrl ? <Action.OpenInBrowser title="Open Dashboard" url={row.dashboardUrl} /> : null}
        {row.statusUrl ? <Action.OpenInBrowser title="Open Status Page" icon={Icon.Heartbeat} url={row.statusUrl} /> : null}
      </ActionPanel>
    );
  }
  const signIn = row.signIn;
  const setUp = signIn ? <Action title={signIn.title} icon={Icon.Person} onAction={() => launchSignIn(signIn.provider)} /> : null;
  const configure = (
    // no shortcut: ⌘, is Raycast's own (it opens the preferences anyway)
    <Action title="Configure" icon={Icon.Gear} onAction={() => openExtensionPreferences()} />
  );
  return (
    <ActionPanel title={row.title}>
      {!row.enabled ? (
        <ActionPanel.Section>
          {setUp}
          {configure}
        </ActionPanel.Section>
      ) : null}
      <ActionPanel.Section>
        {row.dashboardUrl ? <Action.OpenInBrowser title="Open Dashboard" url={row.dashboardUrl} /> : null}
        {row.statusUrl ? (
          <Action.OpenInBrowser
            title="Open Status Page"
            icon={Icon.Heartbeat}
            url={row.statusUrl}
            shortcut={{ modifiers: ["cmd", "opt"], key: "s" }}
          />
        ) : null}
      </ActionPanel.Section>
      <ActionPanel.Section>
        {row.json ? <Action.CopyToClipboard title="Copy JSON" content={row.json} shortcut={Keyboard.Shortcut.Common.Copy} /> : null}
        {row.cliCommand ? (
          <Action.CopyToClipboard title="Copy CLI Command" content={row.cliCommand} shortcut={{ modifiers: ["cmd", "shift"], key: "." }} />
        ) : null}
      </ActionPanel.Section>
      <ActionPanel.Section>
        <Action title="Refresh" icon={Icon.ArrowClockwise} shortcut={Keyboard.Shortcut.Common.Refresh} onAction={onRefresh} />
        {row.refreshSession ? (
          <Action
            title="Refresh Session"
            icon={Icon.RotateClockwise}
            shortcut={{ modifiers: ["cmd", "shift"], key: "r" }}
            onAction={async () => {
              if (await refreshSessionNow(row.id)) onRefresh();
            }}
          />
        ) : null}
        {row.enabled ? configure : null}
        {row.enabled ? setUp : null}
      </ActionPanel.Section>
    </ActionPanel>
  );
}

function Metadata({ items }: { items: MetadataModel[] }) {
  return (
    <List.Item.Detail.Metadata>
      {items.map((item, index) => {
        const key = `${index}`;
        if (item.kind === "separator") return <List.Item.Detail.Metadata.Separator key={key} />;
        if (item.kind === "link")
          return <List.Item.Detail.Metadata.Link key={key} title={item.title} text={item.text} target={item.target} />;
        if (item.kind === "tags")
          return (
            <List.Item.Detail.Metadata.TagList key={key} title={item.title}>
              {item.tags.map((tag) => (
                <List.Item.Detail.Metadata.TagList.Item key={tag.text} text={tag.text} color={TONE_COLOR[tag.tone]} />
              ))}
            </List.Item.Detail.Metadata.TagList>
          );
        return (
          <List.Item.Detail.Metadata.Label
            key={key}
            title={item.title}
            text={item.tone ? { value: item.text, color: TONE_COLOR[item.tone] } : item.text}
          />
        );
      })}
    </List.Item.Detail.Metadata>
  );
}

const ACCESSORY_ICONS = { clock: Icon.Clock, pace: Icon.Gauge, runsOut: Icon.Hourglass } as const;

function accessoryOf(model: AccessoryModel) {
  const color = model.tone ? TONE_COLOR[model.tone] : undefined;
  const symbol = model.icon ? ACCESSORY_ICONS[model.icon] : undefined;
  // the clock stays plain beside its countdown; a pace icon takes its tone, as its text does
  const icon = symbol && color && model.icon !== "clock" ? { source: symbol, tintColor: color } : symbol;
  return {
    ...(model.tag !== undefined ? { tag: color ? { value: model.tag, color } : model.tag } : {}),
    ...(model.text !== undefined ? { text: color ? { value: model.text, color } : model.text } : {}),
    ...(icon ? { icon } : {}),
    ...(model.tooltip ? { tooltip: model.tooltip } : {}),
  };
}
