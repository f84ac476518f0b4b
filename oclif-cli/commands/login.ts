import { Args, Flags, ux } from "@oclif/core";
import { accountKey } from "../../domain/account.js";
import { saveProviderToken } from "../../domain/provider-token.js";
import { descriptorOf, DESCRIPTORS } from "../../providers/registry.js";
import { QuotabarCommand, UsageError } from "../base-command.js";
import { providerId } from "../shared-flags.js";
import { openInBrowser } from "../open-browser.js";

/** Providers with a sign-in flow; everything else takes a key (`config set-key`) or local credentials. */
const SIGN_IN_PROVIDERS = DESCRIPTORS.filter((d) => d.signIn).map((d) => d.id);
export const EXIT_CANCELLED = 130;

export default class Login extends QuotabarCommand {
  static override summary = "Log in with the provider's OAuth device flow and save the token in the config file (GitHub Copilot).";
  static override description =
    "Shows a one-time code and the GitHub verification page (opened in your browser when one can be started), waits while you authorize, then saves the token as providers[copilot].apiKey in the config file (mode 0600) and enables the provider. Ctrl-C cancels without writing anything. The code is valid for about 15 minutes.";
  static override examples = ["<%= config.bin %> login copilot", "<%= config.bin %> login copilot --no-browser"];
  static override args = {
    provider: Args.string({ description: `Provider id (${SIGN_IN_PROVIDERS.join(", ")})`, required: true }),
  };
  static override flags = {
    browser: Flags.boolean({ description: "Open the verification page in the default browser", allowNo: true, default: true }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Login);
    const id = providerId(args.provider);
    if (!SIGN_IN_PROVIDERS.includes(id)) {
      const { name } = descriptorOf(id);
      throw new UsageError(
        `${name} has no login flow in quotabar; only ${SIGN_IN_PROVIDERS.join(", ")} logs in with \`quotabar login\``,
        `${name} authenticates with: ${descriptorOf(id).auth.join("; ")}. Store a key with \`quotabar config set-key ${id} --stdin\`.`,
      );
    }

    const core = await this.core(flags);
    const store = core.config;
    await store.load(); // a config file that cannot be written back fails now, before anything is authorized
    const flow = await core.signIn(id);
    if (!flow) throw new UsageError(`${descriptorOf(id).name} has no sign-in flow`);
    const { name } = descriptorOf(id);
    const controller = new AbortController();
    const cancel = () => controller.abort();
    process.once("SIGINT", cancel);
    process.once("SIGTERM", cancel);
    const spinner = process.stderr.isTTY === true;
    try {
      const code = await flow.start(controller.signal);
      const minutes = Math.max(1, Math.round((code.expiresAt.getTime() - Date.now()) / 60_000));
      this.log(`First copy your one-time code: ${code.userCode}`);
      this.log(`Then open ${code.verificationUri} and enter it (the code expires in about ${minutes} minutes).`);
      if (flags.browser && (await openInBrowser(code.verificationUri))) this.log("Opened the page in your browser.");
      if (spinner) ux.action.start("Waiting for you to authorize on GitHub", undefined, { stdout: false });
      else process.stderr.write("Waiting for you to authorize quotabar on GitHub (Ctrl-C to cancel)...\n");
      const token = await flow.poll(code, {
        signal: controller.signal,
        onPending: ({ intervalSeconds, slowDown }) => {
          if (slowDown && spinner) ux.action.status = `slowed down, polling every ${intervalSeconds} s`;
        },
      });
      if (spinner) ux.action.stop("authorized");
      await saveProviderToken(store, accountKey(id), token);
      this.log(`Logged in to ${name}. The token is saved in ${store.path()} (mode 0600).`);
      this.log(`Run \`quotabar -p ${id}\` to see your usage; \`quotabar logout ${id}\` removes the token.`);
    } catch (error) {
      if (spinner && ux.action.running) ux.action.stop(controller.signal.aborted ? "cancelled" : "failed");
      if (controller.signal.aborted || (error as Error | undefined)?.name === "AbortError") {
        process.stderr.write("Login cancelled; nothing was saved.\n");
        process.exitCode = EXIT_CANCELLED;
        return;
      }
      throw error;
    } finally {
      process.off("SIGINT", cancel);
      process.off("SIGTERM", cancel);
    }
  }
}
