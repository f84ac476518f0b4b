import { usePromise } from "@raycast/utils";
import { useState } from "react";
import type { UsageDocument } from "../../domain/usage-document.js";
import { refreshMenuBar } from "../shared/actions.js";
import { raycastAdapters } from "../shared/raycast-runtime.js";
import { listProviders, loadHistory } from "../shared/usage.js";
import { useUsage } from "../shared/use-usage.js";
import { listModel } from "./list-model.js";
import { UsageList } from "./usage-list.js";

const loadListing = () => listProviders(raycastAdapters());
/** The history of the document's providers; the document is the argument so that each new one (each fetch adds to the history) reads it again. */
const loadCharts = (document: UsageDocument | undefined) => loadHistory(raycastAdapters(), document?.providers.map((p) => p.id) ?? []);

/** The list command: every provider, searchable by name and plan, with a detail pane. */
export default function ShowUsage() {
  const { document, isLoading, revalidate } = useUsage();
  const [showComingSoon] = useState(() => raycastAdapters().preferences.showComingSoon === true);
  // a listing that cannot be read fails the usage fetch too, whose toast says why
  const listing = usePromise(loadListing, [], { onError: () => undefined });
  // the charts are a help: without them (nothing kept yet, an unreadable history) the list is the same
  const history = usePromise(loadCharts, [document], { onError: () => undefined });
  const refresh = () => {
    void Promise.all([revalidate(), listing.revalidate()]).then(() => refreshMenuBar({ fetch: false }));
  };
  return (
    <UsageList
      model={listModel(document, listing.data ?? [], new Date(), { showComingSoon, history: history.data ?? [] })}
      isLoading={isLoading || listing.isLoading}
      onRefresh={refresh}
    />
  );
}
