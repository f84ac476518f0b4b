import { Action, ActionPanel, Clipboard, Detail, Icon, Keyboard, open, showToast, Toast } from "@raycast/api";
import { useEffect, useState } from "react";
import type { DeviceFlow } from "../../ports/device-flow.js";
import { refreshMenuBar } from "../shared/actions.js";
import { loginMarkdown, loginStateFromError, type LoginState, type SignInTexts } from "./sign-in-model.js";

export interface SignInViewProps {
  /** The provider's device flow, or how to load it (core.signIn), which answers null when the provider has none. */
  flow: DeviceFlow | (() => Promise<DeviceFlow | null>);
  texts: SignInTexts;
  /** Stores the token and says where it went. */
  save: (token: string) => Promise<string>;
  /** The key preference set in Raycast wins over the token saved here: its title, to say so. */
  overridingPreference?: string | null;
  /** How often the expiry countdown is redrawn. */
  tickMs?: number;
  /** The clock of the countdown (the preview pins it). */
  clock?: () => Date;
}

/** Runs a device flow: shows the code and the URL, polls, ends signed in, expired or denied (with a restart). */
export function SignInView({ flow, texts, save, overridingPreference = null, tickMs = 15_000, clock = () => new Date() }: SignInViewProps) {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<LoginState>({ step: "requesting" });
  const [now, setNow] = useState(clock);

  useEffect(() => {
    const controller = new AbortController();
    setState({ step: "requesting" });
    (async () => {
      const active = typeof flow === "function" ? await flow() : flow;
      if (active === null) throw new Error(`${texts.name} has no sign-in flow in this version of Quotabar.`);
      const code = await active.start(controller.signal);
      setState({
        step: "waiting",
        userCode: code.userCode,
        verificationUri: code.verificationUri,
        expiresAt: code.expiresAt.toISOString(),
      });
      const token = await active.poll(code, { signal: controller.signal });
      const savedTo = await save(token);
      if (controller.signal.aborted) return;
      setState({ step: "signed-in", savedTo });
      await showToast({ style: Toast.Style.Success, title: `Signed in to ${texts.name}` });
      await refreshMenuBar({ fetch: true });
    })().catch((error: unknown) => {
      const next = loginStateFromError(error);
      if (next && !controller.signal.aborted) setState(next);
    });
    return () => controller.abort();
  }, [attempt]);

  useEffect(() => {
    if (state.step !== "waiting") return;
    const timer = setInterval(() => setNow(clock()), tickMs);
    return () => clearInterval(timer);
  }, [state.step, tickMs, clock]);

  const restart = <Action title="Restart Sign-In" icon={Icon.ArrowClockwise} onAction={() => setAttempt((n) => n + 1)} />;
  const note =
    overridingPreference && state.step === "signed-in"
      ? `\n\n> The ${overridingPreference} preference is set and takes precedence; clear it to use this sign-in.`
      : "";
  return (
    <Detail
      isLoading={state.step === "requesting" || state.step === "waiting"}
      markdown={loginMarkdown(state, now, texts) + note}
      metadata={
        state.step === "waiting" ? (
          <Detail.Metadata>
            <Detail.Metadata.Label title="Code" text={state.userCode} />
            <Detail.Metadata.Link title="Verification URL" text={state.verificationUri} target={state.verificationUri} />
            <Detail.Metadata.Label title="Expires" text={new Date(state.expiresAt).toLocaleTimeString("en-US")} />
          </Detail.Metadata>
        ) : undefined
      }
      actions={
        <ActionPanel>
          {state.step === "waiting" ? (
            <>
              <Action
                title="Copy Code and Open Verification Page"
                icon={Icon.Globe}
                shortcut={Keyboard.Shortcut.Common.Open}
                onAction={async () => {
                  await Clipboard.copy(state.userCode);
                  await open(state.verificationUri);
                }}
              />
              <Action.CopyToClipboard title="Copy Code" content={state.userCode} />
              <Action.OpenInBrowser title="Open Verification URL" url={state.verificationUri} />
            </>
          ) : null}
          {state.step === "expired" || state.step === "denied" || state.step === "failed" ? restart : null}
        </ActionPanel>
      }
    />
  );
}
