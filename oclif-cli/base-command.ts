import { Command, Errors, Flags } from "@oclif/core";
import type { Core } from "../library/compose-core.js";
import { writeCliRemedies } from "../library/remedy-text.js";
import type { Remedy } from "../domain/remedy.js";
import { redact } from "../domain/redact.js";
import { withoutEscapes } from "../domain/untrusted-text.js";
import { wantsColor } from "./render/style.js";
import { EXIT } from "./exit-codes.js";
import { providerIds } from "./shared-flags.js";

export { EXIT } from "./exit-codes.js";

interface CliFailure {
  code: string;
  message: string;
  hint: string | null;
  exit: number;
}

/**
 * Shared by every command: the `--config` flag, colour choice, and one place that turns any
 * failure into a short message (or a small `{"error": {...}}` under --json) and an exit code.
 */
export abstract class QuotabarCommand extends Command {
  static override baseFlags = {
    config: Flags.string({
      description: "Path of the config file (default: $QUOTABAR_CONFIG or ~/.config/quotabar/config.json)",
      helpValue: "<path>",
    }),
  };

  /** The core, loaded on first use so `--version` and `--help` stay fast; `-p` ids are checked here, for every command alike. */
  protected async core(flags: { config?: string | undefined; provider?: string[] | undefined }): Promise<Core> {
    if (flags.provider) flags.provider = providerIds(flags.provider);
    const { createCliCore } = await import("./composition.js");
    return createCliCore(flags);
  }

  protected color(flagValue: boolean | undefined): boolean {
    return wantsColor(process.stdout, process.env, flagValue);
  }

  protected writeJson(value: unknown): void {
    process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  override logJson(json: unknown): void {
    this.writeJson(json);
  }

  override toErrorJson(error: unknown): unknown {
    const failure = classify(error);
    return { error: { code: failure.code, message: failure.message, hint: failure.hint } };
  }

  override async catch(error: Error & { exitCode?: number }): Promise<void> {
    if (error instanceof Errors.ExitError) throw error;
    const failure = classify(error);
    process.exitCode = failure.exit;
    if (this.jsonEnabled()) {
      this.writeJson(this.toErrorJson(error));
      return;
    }
    process.stderr.write(`Error: ${failure.message}\n`);
    if (failure.hint) process.stderr.write(`Hint: ${failure.hint}\n`);
  }
}

/** The exit code a failure ends a command with (EXIT.usage for the config file, an unknown provider, a bad flag...). */
export function exitCodeOf(error: unknown): number {
  return classified(error).exit;
}

/** A failure in words safe for a terminal: a message may quote an upstream, a file or a path, so no escape, control or bidi override gets through. */
function classify(error: unknown): CliFailure {
  const failure = classified(error);
  return { ...failure, message: withoutEscapes(failure.message), hint: failure.hint === null ? null : withoutEscapes(failure.hint) };
}

// Told apart by name, not instanceof, so this module need not load the core.
function classified(error: unknown): CliFailure {
  const name = (error as Error | undefined)?.name;
  const message = (error as Error | undefined)?.message ?? String(error);
  const remedies = (error as { remedies?: readonly Remedy[] } | undefined)?.remedies ?? [];
  if (name === "UnknownProviderError" || name === "UnsupportedSourceError")
    return { code: "usage", message, hint: writeCliRemedies(remedies), exit: EXIT.usage };
  if (name === "ConfigFileError") {
    const hint = (error as { hint?: string | null }).hint ?? "Fix the file by hand; quotabar never overwrites a file it cannot parse.";
    return { code: "config", message, hint, exit: EXIT.usage };
  }
  if (name === "OriginMapError" || name === "SecretStoreChoiceError") return { code: "usage", message, hint: null, exit: EXIT.usage };
  const oclifExit = (error as { oclif?: { exit?: number } }).oclif?.exit;
  if (oclifExit === 2 || /Parse|Flag|Argument/i.test((error as Error).name ?? "")) {
    return { code: "usage", message: firstLines((error as Error).message), hint: "See quotabar --help.", exit: EXIT.usage };
  }
  if (error instanceof UsageError) return { code: "usage", message: error.message, hint: error.hint, exit: EXIT.usage };
  // A failure of the service the command talked to (e.g. a login that expired or was denied), not a bug.
  if (name === "QuotabarError") {
    const failure = error as { code: string };
    return { code: failure.code, message: redact(message), hint: writeCliRemedies(remedies), exit: EXIT.providerFailed };
  }
  return {
    code: "internal",
    message: redact(message),
    hint: "This is a bug in quotabar; please report it with the command you ran.",
    exit: EXIT.internal,
  };
}

function firstLines(message: string): string {
  return message
    .split("\n")
    .filter((line) => !/^(See more help with|The following errors? occurred)/.test(line.trim()))
    .map((line) => line.trim())
    .join("\n")
    .trim();
}

/** A mistake in how the command was called (exit 2). */
export class UsageError extends Error {
  override name = "UsageError";
  constructor(
    message: string,
    readonly hint: string | null = null,
  ) {
    super(message);
  }
}
