import { QuotabarError } from "./errors.js";

/** Ids that are not providers: one wording for every command and the library. */
export class UnknownProviderError extends QuotabarError {
  override name = "UnknownProviderError";
  constructor(
    readonly unknownIds: readonly string[],
    validIds: readonly string[],
  ) {
    super("not_configured", `Unknown provider id: ${unknownIds.join(", ")}`, {
      remedies: [{ kind: "advice", text: `Valid ids: ${validIds.join(", ")}` }],
    });
  }
}
