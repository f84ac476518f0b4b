import { advice, readTextIfPresent } from "../kit/index.js";
import { noIdeDetected, reasonOf } from "./credentials.js";
import { ideLabel, ideOf } from "./ides.js";
import type { JetBrainsReading } from "./policy.js";
import { cannotParse, quotaReading } from "./quota-file.js";

/** The quota file read and parsed; one removed since it was found is no IDE at all. */
export async function readJetbrains(file: string): Promise<JetBrainsReading> {
  const folder = file.split(/[\\/]/).at(-3) ?? "";
  const ide = ideLabel(ideOf(folder) ?? { product: folder, version: "" });
  const text = await readTextIfPresent(file).catch((error: unknown) => {
    throw cannotParse(ide, `Failed to read file: ${reasonOf(error)}`).withRemedies(
      advice(`Check that your user can read the quota file of ${ide}.`),
    );
  });
  // removed between finding it and reading it
  if (text === null) throw noIdeDetected();
  return quotaReading(text, ide);
}
