/** CRC-32C (Castagnoli), as LevelDB checks its log records and table blocks, with its masking. */
const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    table[i] = c >>> 0;
  }
  return table;
})();

const MASK_DELTA = 0xa282ead8;

export function crc32c(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = (TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return ~c >>> 0;
}

/** LevelDB stores checksums rotated and offset, so a CRC of data holding CRCs stays well distributed. */
export function unmaskCrc(masked: number): number {
  const rotated = (masked - MASK_DELTA) >>> 0;
  return ((rotated >>> 17) | (rotated << 15)) >>> 0;
}

export function maskCrc(crc: number): number {
  return (((crc >>> 15) | (crc << 17)) + MASK_DELTA) >>> 0;
}
