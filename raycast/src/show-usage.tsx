import { refreshMenuBar } from "./actions.js";
import { UsageList } from "./usage-list.js";
import { useUsage } from "./use-usage.js";
import { listModel } from "./view-model.js";

/** The list command: every provider, searchable by name and plan, with a detail pane. */
export default function ShowUsage() {
  const { document, isLoading, revalidate } = useUsage();
  const refresh = () => {
    void Promise.resolve(revalidate()).then(() => refreshMenuBar({ fetch: false }));
  };
  return <UsageList model={listModel(document, new Date())} isLoading={isLoading} onRefresh={refresh} />;
}
