import { ByteCursor } from "./byte-cursor.js";
import { Corruption } from "./corruption.js";

/**
 * Decompresses one raw Snappy block (no framing), as LevelDB compresses table blocks. The length the
 * block declares is checked against `maxLength` before anything is allocated, and every copy is
 * checked against what was written so far, so hostile input ends in a Corruption, never a hang.
 */
export function snappyUncompress(input: Uint8Array, maxLength: number): Uint8Array {
  const cursor = new ByteCursor(input);
  const length = cursor.varint32();
  if (length > maxLength) throw new Corruption(`Snappy block declares ${length} bytes, more than the ${maxLength} allowed`);
  const out = new Uint8Array(length);
  let written = 0;
  while (cursor.remaining > 0) {
    const tag = cursor.byte();
    if ((tag & 3) === 0) {
      let literal = tag >>> 2;
      if (literal >= 60) literal = littleEndian(cursor, literal - 59);
      literal += 1;
      if (literal > length - written) throw new Corruption("Snappy literal runs past the declared length");
      out.set(cursor.take(literal), written);
      written += literal;
      continue;
    }
    let copy: number;
    let offset: number;
    if ((tag & 3) === 1) {
      copy = 4 + ((tag >>> 2) & 7);
      offset = ((tag >>> 5) << 8) | cursor.byte();
    } else {
      copy = (tag >>> 2) + 1;
      offset = littleEndian(cursor, (tag & 3) === 2 ? 2 : 4);
    }
    if (offset === 0 || offset > written) throw new Corruption("Snappy copy points before the start of the block");
    if (copy > length - written) throw new Corruption("Snappy copy runs past the declared length");
    // byte by byte: a copy may overlap what it writes (a run)
    for (let i = 0; i < copy; i++, written++) out[written] = out[written - offset] as number;
  }
  if (written !== length) throw new Corruption(`Snappy block holds ${written} of the ${length} bytes it declares`);
  return out;
}

function littleEndian(cursor: ByteCursor, bytes: number): number {
  let value = 0;
  for (let i = 0; i < bytes; i++) value += cursor.byte() * 2 ** (8 * i);
  return value;
}
