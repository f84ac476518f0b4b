import { ByteCursor, readUint32 } from "./byte-cursor.js";
import { Corruption } from "./corruption.js";
import { crc32c, unmaskCrc } from "./crc32c.js";

const BLOCK_SIZE = 32_768;
const HEADER_SIZE = 7;
const FULL = 1;
const FIRST = 2;
const MIDDLE = 3;
const LAST = 4;

/**
 * The records of a LevelDB log file (a `*.log` or a MANIFEST), fragments joined, checksums verified.
 * What LevelDB itself skips is skipped the same way (the rest of a block after a bad checksum, a
 * fragment left over from a crash), and handed to `dropped`: the MANIFEST reader makes that an error.
 * A record cut off by the end of the file is a write in progress, not damage.
 */
export function logRecords(bytes: Uint8Array, dropped: (reason: string) => void = () => undefined): Uint8Array[] {
  const records: Uint8Array[] = [];
  let pending: Uint8Array[] | null = null;
  const badBlock = (reason: string | null) => {
    if (reason) dropped(reason);
    if (pending) dropped("a fragmented log record lost its middle");
    pending = null;
  };
  for (let block = 0; block < bytes.length; block += BLOCK_SIZE) {
    const blockEnd = Math.min(block + BLOCK_SIZE, bytes.length);
    let pos = block;
    while (blockEnd - pos >= HEADER_SIZE) {
      const length = (bytes[pos + 4] as number) | ((bytes[pos + 5] as number) << 8);
      const type = bytes[pos + 6] as number;
      const end = pos + HEADER_SIZE + length;
      if (end > blockEnd) {
        if (blockEnd < bytes.length) badBlock("a log record is longer than its block");
        break;
      }
      if (type === 0 && length === 0) {
        badBlock(null); // zeros a writer preallocated: the rest of the block is empty
        break;
      }
      if (unmaskCrc(readUint32(bytes, pos)) !== crc32c(bytes.subarray(pos + 6, end))) {
        badBlock("a log record fails its checksum");
        break;
      }
      const data = bytes.subarray(pos + HEADER_SIZE, end);
      pos = end;
      if (type === FULL || type === FIRST) {
        if (pending) dropped("a fragmented log record has no end");
        pending = type === FIRST ? [data] : null;
        if (type === FULL) records.push(data);
      } else if (type === MIDDLE || type === LAST) {
        if (!pending) {
          dropped("a log record fragment has no start");
          continue;
        }
        pending.push(data);
        if (type === LAST) {
          records.push(Buffer.concat(pending));
          pending = null;
        }
      } else {
        badBlock(`unknown log record type ${type}`);
        break;
      }
    }
  }
  return records;
}

export interface BatchOperation {
  key: Uint8Array;
  /** null: the key was deleted. */
  value: Uint8Array | null;
  sequence: bigint;
}

/** The puts and deletions of one WriteBatch (a `*.log` record), each with its sequence number. */
export function batchOperations(record: Uint8Array): BatchOperation[] {
  if (record.length < 12) throw new Corruption("a write batch is shorter than its header");
  const cursor = new ByteCursor(record);
  const first = cursor.uint64();
  const count = cursor.uint32();
  const operations: BatchOperation[] = [];
  while (cursor.remaining > 0) {
    const tag = cursor.byte();
    if (tag !== 0 && tag !== 1) throw new Corruption(`unknown write batch tag ${tag}`);
    const key = cursor.lengthPrefixed();
    const value = tag === 1 ? cursor.lengthPrefixed() : null;
    operations.push({ key, value, sequence: first + BigInt(operations.length) });
  }
  if (operations.length !== count)
    throw new Corruption(`a write batch holds ${operations.length} operations, not the ${count} it declares`);
  return operations;
}
