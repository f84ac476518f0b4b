import { Corruption } from "./corruption.js";

/** Reads LevelDB's little-endian integers and varints from a byte range, never past its end. */
export class ByteCursor {
  pos: number;

  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    readonly end = bytes.length,
  ) {
    this.pos = start;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  byte(): number {
    if (this.pos >= this.end) throw new Corruption("unexpected end of data");
    return this.bytes[this.pos++] as number;
  }

  /** A varint that must fit 32 bits (lengths, counts). */
  varint32(): number {
    const value = this.varint(5);
    if (value > 0xffffffff) throw new Corruption("varint32 out of range");
    return value;
  }

  /** A varint64 used as a file number, offset or size: refused past 2^53, which no real file reaches. */
  varint64(): number {
    return this.varint(10);
  }

  /** A varint whose value is not needed (a sequence number may pass 2^53). */
  skipVarint(): void {
    for (let i = 0; i < 10; i++) if (this.byte() < 0x80) return;
    throw new Corruption("varint too long");
  }

  private varint(maxBytes: number): number {
    let value = 0;
    for (let i = 0; i < maxBytes; i++) {
      const b = this.byte();
      value += (b & 0x7f) * 2 ** (7 * i);
      if (b < 0x80) {
        if (!Number.isSafeInteger(value)) throw new Corruption("varint out of range");
        return value;
      }
    }
    throw new Corruption("varint too long");
  }

  take(length: number): Uint8Array {
    if (length > this.remaining) throw new Corruption("length runs past the end of its block");
    const slice = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    return slice;
  }

  lengthPrefixed(): Uint8Array {
    return this.take(this.varint32());
  }

  uint32(): number {
    return readUint32(this.take(4), 0);
  }

  uint64(): bigint {
    const low = this.uint32();
    return (BigInt(this.uint32()) << 32n) | BigInt(low);
  }
}

export function readUint32(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16)) + (bytes[at + 3] as number) * 2 ** 24
  );
}
