import { ByteCursor, readUint32 } from "./byte-cursor.js";
import { Corruption } from "./corruption.js";
import { crc32c, unmaskCrc } from "./crc32c.js";
import { snappyUncompress } from "./snappy.js";

const FOOTER_SIZE = 48;
const TRAILER_SIZE = 5; // compression type + checksum after every block
const MAGIC = [0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb]; // 0xdb4775248b80fb57, little-endian
const NO_COMPRESSION = 0;
const SNAPPY = 1;
/** Blocks are 4 KiB before compression in LevelDB's defaults; anything near this is not a block. */
const MAX_BLOCK_BYTES = 16 * 1024 * 1024;
/** Bytes checked and decompressed for one table: an index pointing at one block a million times stops here. */
const MAX_TABLE_WORK_BYTES = 256 * 1024 * 1024;

export interface TableEntry {
  key: Uint8Array;
  /** null: a deletion marker. */
  value: Uint8Array | null;
  sequence: bigint;
}

/** Every entry of a LevelDB table file (`*.ldb`, `*.sst`), in order, checksums verified. */
export function tableEntries(bytes: Uint8Array, visit: (entry: TableEntry) => void): void {
  if (bytes.length < FOOTER_SIZE) throw new Corruption("too short to be a table");
  const footerStart = bytes.length - FOOTER_SIZE;
  if (MAGIC.some((b, i) => bytes[bytes.length - 8 + i] !== b)) throw new Corruption("not a table (no table magic number)");
  const footer = new ByteCursor(bytes, footerStart, bytes.length - 8);
  footer.varint64(); // the metaindex block (filters) is not needed to read every entry
  footer.varint64();
  let work = 0;
  const readBlock = (offset: number, size: number): Uint8Array => {
    if (size > MAX_BLOCK_BYTES || offset + size + TRAILER_SIZE > footerStart)
      throw new Corruption("a block handle points outside the table");
    work += size;
    if (work > MAX_TABLE_WORK_BYTES) throw new Corruption("its index reads the same bytes over and over");
    const contents = bytes.subarray(offset, offset + size);
    const type = bytes[offset + size] as number;
    const expected = unmaskCrc(readUint32(bytes, offset + size + 1));
    if (crc32c(bytes.subarray(offset, offset + size + 1)) !== expected) throw new Corruption(`the block at ${offset} fails its checksum`);
    if (type === NO_COMPRESSION) return contents;
    if (type !== SNAPPY) throw new Corruption(`the block at ${offset} uses unknown compression ${type}`);
    const block = snappyUncompress(contents, MAX_BLOCK_BYTES);
    work += block.length;
    return block;
  };
  const index = readBlock(footer.varint64(), footer.varint64());
  blockEntries(index, (_key, handle) => {
    const cursor = new ByteCursor(handle);
    const data = readBlock(cursor.varint64(), cursor.varint64());
    blockEntries(data, (internalKey, value) => visit(parseInternalKey(internalKey, value)));
  });
}

/** The key/value pairs of one block: keys share a prefix with the previous key, restart points end the block. */
function blockEntries(block: Uint8Array, visit: (key: Uint8Array, value: Uint8Array) => void): void {
  if (block.length < 4) throw new Corruption("a block is too short for its restart count");
  const restarts = readUint32(block, block.length - 4);
  const entriesEnd = block.length - 4 - 4 * restarts;
  if (restarts === 0 || entriesEnd < 0) throw new Corruption("a block's restart array does not fit it");
  const cursor = new ByteCursor(block, 0, entriesEnd);
  let previous: Uint8Array = new Uint8Array(0);
  while (cursor.remaining > 0) {
    const shared = cursor.varint32();
    const unshared = cursor.varint32();
    const valueLength = cursor.varint32();
    if (shared > previous.length) throw new Corruption("a key shares more bytes than the previous key has");
    const key = new Uint8Array(shared + unshared);
    key.set(previous.subarray(0, shared));
    key.set(cursor.take(unshared), shared);
    visit(key, cursor.take(valueLength));
    previous = key;
  }
}

/** A table key is the user key followed by 8 bytes: the sequence number and the kind (1 value, 0 deletion). */
function parseInternalKey(internalKey: Uint8Array, value: Uint8Array): TableEntry {
  if (internalKey.length < 8) throw new Corruption("a table key is shorter than its sequence number");
  const at = internalKey.length - 8;
  const kind = internalKey[at] as number;
  if (kind > 1) throw new Corruption(`a table entry has unknown kind ${kind}`);
  const low = readUint32(internalKey, at);
  const high = readUint32(internalKey, at + 4);
  const sequence = (BigInt(high) << 24n) | BigInt(low >>> 8);
  return { key: internalKey.subarray(0, at), value: kind === 1 ? value : null, sequence };
}
