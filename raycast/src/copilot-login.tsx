import { SignInCommand } from "./sign-in-command.js";

/** The manifest's `copilot-login` command: the sign-in of the provider it is named after. */
export default function CopilotLogin() {
  return <SignInCommand provider="copilot" />;
}
