import { afterEach, describe, expect, it } from "vitest";
import { createRaycastCore } from "../shared/raycast-core.js";
import { raycastAdapters } from "../shared/raycast-runtime.js";
import { environment, LaunchType, resetRaycastDouble } from "../doubles/raycast-api/api.js";

describe("the Raycast runtime's adapters", () => {
  afterEach(() => resetRaycastDouble());

  it("may prompt for a browser's key only in a launch the user started, never in a background refresh", () => {
    environment.launchType = LaunchType.UserInitiated;
    expect(raycastAdapters().interactive).toBe(true);
    expect(createRaycastCore(raycastAdapters()).browsers.interactive).toBe(true);
    environment.launchType = LaunchType.Background;
    expect(raycastAdapters().interactive).toBe(false);
    expect(createRaycastCore(raycastAdapters()).browsers.interactive).toBe(false);
  });
});
