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

/** An account the config does not name (`-p claude:work`); a label that is not one is never quoted. */
export class UnknownAccountError extends UnknownProviderError {
  constructor(refs: readonly string[], advice: string) {
    super(refs, []);
    this.message = `Unknown account: ${refs.join(", ")}`;
    this.remedies = [{ kind: "advice", text: advice }];
  }
}
