import { usePromise } from "@raycast/utils";
import { useState } from "react";
import { refreshMenuBar } from "../shared/actions.js";
import { raycastAdapters } from "../shared/raycast-runtime.js";
import { listProviders } from "../shared/usage.js";
import { useUsage } from "../shared/use-usage.js";
import { listModel } from "./list-model.js";
import { UsageList } from "./usage-list.js";

const loadListing = () => listProviders(raycastAdapters());

/** The list command: every provider, searchable by name and plan, with a detail pane. */
export default function ShowUsage() {
  const { document, isLoading, revalidate } = useUsage();
  const [showComingSoon] = useState(() => raycastAdapters().preferences.showComingSoon === true);
  // a listing that cannot be read fails the usage fetch too, whose toast says why
  const listing = usePromise(loadListing, [], { onError: () => undefined });
  const refresh = () => {
    void Promise.all([revalidate(), listing.revalidate()]).then(() => refreshMenuBar({ fetch: false }));
  };
  return (
    <UsageList
      model={listModel(document, listing.data ?? [], new Date(), { showComingSoon })}
      isLoading={isLoading || listing.isLoading}
      onRefresh={refresh}
    />
  );
}
