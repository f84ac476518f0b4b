import type { ErrorCode, UsageError } from "./usage-document.js";

/**
 * The one error type that crosses the hexagon: a code of the taxonomy, a message for people
 * and a hint saying what to do. Adapters throw it; the UsageService turns it into data.
 */
export class QuotabarError extends Error {
  readonly code: ErrorCode;
  hint: string | null;
  /** Upstream HTTP status, when the error came from a response. */
  readonly status: number | undefined;
  /** Seconds the upstream asked us to wait (429 Retry-After). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { hint?: string | null; status?: number; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "QuotabarError";
    this.code = code;
    this.hint = options.hint ?? null;
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  withHint(hint: string): this {
    this.hint = hint;
    return this;
  }

  toUsageError(): UsageError {
    return { code: this.code, message: this.message, hint: this.hint };
  }
}

/** Anything thrown becomes a QuotabarError; unknown throwables are reported as upstream failures. */
export function asQuotabarError(error: unknown): QuotabarError {
  if (error instanceof QuotabarError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new QuotabarError("upstream", message, { cause: error });
}

export const notConfigured = (message: string, hint: string) => new QuotabarError("not_configured", message, { hint });
export const parseError = (message: string, hint: string | null = null) => new QuotabarError("parse", message, { hint });
