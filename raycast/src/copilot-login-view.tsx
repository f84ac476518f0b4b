import { Action, ActionPanel, Clipboard, Detail, Icon, open, showToast, Toast } from "@raycast/api";
import { useEffect, useState } from "react";
import type { DeviceFlow } from "../../ports/device-flow.js";
import { refreshMenuBar } from "./actions.js";
import { loginMarkdown, loginStateFromError, type LoginState } from "./login-model.js";

export interface CopilotLoginViewProps {
  flow: DeviceFlow;
  /** Stores the token and says where it went. */
  save: (token: string) => Promise<string>;
  /** A token typed into Preferences wins over the one saved here; say so. */
  preferenceTokenSet?: boolean;
  /** How often the expiry countdown is redrawn. */
  tickMs?: number;
  /** The clock of the countdown (the preview pins it). */
  clock?: () => Date;
}

/** Runs the device flow: shows the code and the URL, polls, ends signed in, expired or denied (with a restart). */
export function CopilotLoginView({
  flow,
  save,
  preferenceTokenSet = false,
  tickMs = 15_000,
  clock = () => new Date(),
}: CopilotLoginViewProps) {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<LoginState>({ step: "requesting" });
  const [now, setNow] = useState(clock);

  useEffect(() => {
    const controller = new AbortController();
    setState({ step: "requesting" });
    (async () => {
      const code = await flow.start(controller.signal);
      setState({
        step: "waiting",
        userCode: code.userCode,
        verificationUri: code.verificationUri,
        expiresAt: code.expiresAt.toISOString(),
      });
      const token = await flow.poll(code, { signal: controller.signal });
      const savedTo = await save(token);
      if (controller.signal.aborted) return;
      setState({ step: "signed-in", savedTo });
      await showToast({ style: Toast.Style.Success, title: "Signed in to GitHub Copilot" });
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
    preferenceTokenSet && state.step === "signed-in"
      ? "\n\n> The GitHub Copilot Token preference is set and takes precedence; clear it to use this sign-in."
      : "";
  return (
    <Detail
      isLoading={state.step === "requesting" || state.step === "waiting"}
      markdown={loginMarkdown(state, now) + note}
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
                title="Copy Code and Open GitHub"
                icon={Icon.Globe}
                shortcut={{ modifiers: ["cmd"], key: "o" }}
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
