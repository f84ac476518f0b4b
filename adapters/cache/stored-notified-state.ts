import { storageName, type AccountKey } from "../../domain/account.js";
import { tryJson } from "../../domain/decode-body.js";
import { METER_ROLES } from "../../domain/meter.js";
import type { NotifiedMeter, NotifiedState, NotifiedStateStore } from "../../ports/notified-state.js";
import type { TextStore } from "../../ports/text-store.js";
import { updateText } from "./update-text.js";

/** `history/<provider>-notified` in the TextStore (beside the provider's history; `history/notified/<id>@<account>` for a named account), changed under the store's lock. */
export class StoredNotifiedState implements NotifiedStateStore {
  constructor(private readonly store: TextStore) {}

  async update(account: AccountKey, change: (state: NotifiedState | null) => NotifiedState): Promise<void> {
    await updateText(this.store, key(account), (text) => JSON.stringify(change(parse(text))));
  }

  async remove(account: AccountKey): Promise<void> {
    await this.store.remove(key(account));
  }
}

/** A named account's is in its own folder: `history/<id>@<label>-notified` could be the history of the label `<label>-notified`. */
const key = (account: AccountKey) =>
  account.account === null ? `history/${account.id}-notified` : `history/notified/${storageName(account)}`;

const isTextOrNull = (value: unknown) => value === null || typeof value === "string";

/** The kept state, or null when there is none or it is damaged (then everything current is news again, once). */
function parse(text: string | null): NotifiedState | null {
  const value = text === null ? null : tryJson(text);
  const state = value as NotifiedState;
  if (typeof state !== "object" || state === null || typeof state.meters !== "object" || state.meters === null) return null;
  if (!Array.isArray(state.incidents) || !state.incidents.every((i) => typeof i === "string")) return null;
  for (const [role, meter] of Object.entries(state.meters)) {
    if (!(METER_ROLES as readonly string[]).includes(role) || !validMeter(meter)) return null;
  }
  return state;
}

function validMeter(meter: unknown): meter is NotifiedMeter {
  const m = meter as NotifiedMeter;
  return (
    typeof m === "object" &&
    m !== null &&
    isTextOrNull(m.resetsAt) &&
    typeof m.runOut === "boolean" &&
    Array.isArray(m.thresholds) &&
    m.thresholds.every((t) => typeof t === "number")
  );
}
