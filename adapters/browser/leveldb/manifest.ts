import { ByteCursor } from "./byte-cursor.js";
import { Corruption } from "./corruption.js";
import { logRecords } from "./log-format.js";

const LEVELS = 7;

/** What the MANIFEST says about the database now: its comparator, which logs and tables are live. */
export interface ManifestState {
  comparator: string | null;
  logNumber: number;
  prevLogNumber: number;
  tables: Set<number>;
}

/** Replays the version edits of a MANIFEST (any damage but a write in progress at its end is an error, as in LevelDB). */
export function readManifest(bytes: Uint8Array): ManifestState {
  const state: ManifestState = { comparator: null, logNumber: 0, prevLogNumber: 0, tables: new Set() };
  const records = logRecords(bytes, (reason) => {
    throw new Corruption(reason);
  });
  for (const record of records) applyEdit(state, new ByteCursor(record));
  return state;
}

function applyEdit(state: ManifestState, edit: ByteCursor): void {
  while (edit.remaining > 0) {
    const tag = edit.varint32();
    switch (tag) {
      case 1:
        state.comparator = Buffer.from(edit.lengthPrefixed()).toString("latin1");
        break;
      case 2:
        state.logNumber = edit.varint64();
        break;
      case 3: // next file number
      case 4: // last sequence
        edit.skipVarint();
        break;
      case 5: // compaction pointer
        level(edit);
        edit.lengthPrefixed();
        break;
      case 6:
        level(edit);
        state.tables.delete(edit.varint64());
        break;
      case 7:
        level(edit);
        state.tables.add(edit.varint64());
        edit.skipVarint(); // size
        edit.lengthPrefixed(); // smallest key
        edit.lengthPrefixed(); // largest key
        break;
      case 9:
        state.prevLogNumber = edit.varint64();
        break;
      default:
        throw new Corruption(`unknown MANIFEST tag ${tag}`);
    }
  }
}

function level(edit: ByteCursor): number {
  const value = edit.varint32();
  if (value >= LEVELS) throw new Corruption(`MANIFEST names level ${value}`);
  return value;
}
