import { CopilotLoginView } from "./copilot-login-view.js";
import { saveCopilotToken } from "./copilot-token.js";
import { createCopilotDeviceFlow, createRaycastConfigStore } from "./raycast-container.js";
import { raycastAdapters } from "./raycast-runtime.js";

/** The Copilot login command: the device flow, its token saved where Raycast keeps the config. */
export default function CopilotLogin() {
  const adapters = raycastAdapters();
  return (
    <CopilotLoginView
      flow={createCopilotDeviceFlow(adapters)}
      save={(token) => saveCopilotToken(createRaycastConfigStore(adapters), token)}
      preferenceTokenSet={Boolean(adapters.preferences.copilotToken?.trim())}
    />
  );
}
