import { useState } from "react";
import { descriptorOf } from "../../providers/registry.js";
import { preferenceOf } from "../shared/preferences.js";
import { createRaycastConfigStore, createRaycastCore } from "../shared/raycast-core.js";
import { raycastAdapters } from "../shared/raycast-runtime.js";
import { raycastRemedyText } from "../shared/remedy-text.js";
import type { SignInTexts } from "./sign-in-model.js";
import { saveSignInToken } from "./sign-in-token.js";
import { SignInView } from "./sign-in-view.js";

/** The words of a provider's sign-in, from the registry: its descriptor's signIn title, name and key setting. */
export function signInTexts(provider: string): SignInTexts {
  const descriptor = descriptorOf(provider);
  return {
    title: descriptor.signIn?.title ?? `Sign In to ${descriptor.name}`,
    name: descriptor.name,
    alternative: preferenceOf(provider, "apiKey") ? raycastRemedyText({ kind: "set-key", provider, env: [] }) : null,
  };
}

/** A sign-in command (`<id>-login` in the manifest): the provider's flow from the core, its token saved where Raycast keeps the config. */
export function SignInCommand({ provider }: { provider: string }) {
  const [adapters] = useState(raycastAdapters);
  const [core] = useState(() => createRaycastCore(adapters));
  const key = preferenceOf(provider, "apiKey");
  const keySet = key !== undefined && String(adapters.preferences[key.name] ?? "").trim() !== "";
  return (
    <SignInView
      flow={() => core.signIn(provider)}
      texts={signInTexts(provider)}
      save={(token) => saveSignInToken(createRaycastConfigStore(adapters), provider, token)}
      overridingPreference={keySet ? key.setting.title : null}
    />
  );
}
