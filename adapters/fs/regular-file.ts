import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";

/**
 * A path that is not a regular file (a device, a FIFO, a socket, a directory) or is larger than a
 * reader takes. `code` is EISDIR for a directory, like Node's own error, else ENOTREG or EFBIG.
 */
export class UnreadableFileError extends Error {
  override name = "UnreadableFileError";
  constructor(
    readonly path: string,
    readonly problem: string,
    readonly code: "EISDIR" | "ENOTREG" | "EFBIG",
  ) {
    super(`${path} is ${problem}`);
  }
}

// O_NONBLOCK: opening a FIFO returns at once (a blocking open waits for a writer forever);
// O_NOCTTY: a terminal device never becomes ours. Neither exists on Windows.
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * A regular file opened for reading. Anything else is refused before a byte is read, checked on
 * the opened file so a swap after a look cannot get past it: /dev/urandom, a FIFO (opened without
 * waiting for a writer), a socket, a directory. Errors of the open (ENOENT, EACCES) are thrown as
 * they are; the caller closes the handle.
 */
export async function openRegularFile(path: string): Promise<{ handle: FileHandle; size: number }> {
  const handle = await open(path, FLAGS);
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new UnreadableFileError(path, "a directory, not a file", "EISDIR");
    if (!info.isFile()) throw new UnreadableFileError(path, `not a regular file (${kindOf(info)})`, "ENOTREG");
    return { handle, size: info.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The UTF-8 text of a regular file of at most `maxBytes` (openRegularFile's checks); one that grows past the cap while read is refused too. */
export async function readRegularFile(path: string, maxBytes: number): Promise<string> {
  const { handle, size } = await openRegularFile(path);
  try {
    if (size > maxBytes) throw tooLarge(path, maxBytes);
    // one byte more than the cap, at most: a file that grew past it while read shows it
    let buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, size + 4096));
    let length = 0;
    for (;;) {
      if (length === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(Math.min(buffer.length, maxBytes + 1 - length))]);
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) throw tooLarge(path, maxBytes);
    }
    return buffer.toString("utf8", 0, length);
  } finally {
    await handle.close();
  }
}

/**
 * readRegularFile with blocking calls, the same checks and cap: for a short run that reads a few
 * small files and nothing else (a status bar's poll), where starting libuv's thread pool for the
 * first asynchronous call costs more than every read.
 */
export function readRegularFileSync(path: string, maxBytes: number): string {
  const { fd, size } = openRegularFileSync(path);
  try {
    if (size > maxBytes) throw tooLarge(path, maxBytes);
    let buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, size + 4096));
    let length = 0;
    for (;;) {
      if (length === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(Math.min(buffer.length, maxBytes + 1 - length))]);
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) throw tooLarge(path, maxBytes);
    }
    return buffer.toString("utf8", 0, length);
  } finally {
    closeSync(fd);
  }
}

/** openRegularFile with blocking calls (the same checks): the caller closes the descriptor. */
export function openRegularFileSync(path: string): { fd: number; size: number } {
  const fd = openSync(path, FLAGS);
  try {
    const info = fstatSync(fd);
    if (info.isDirectory()) throw new UnreadableFileError(path, "a directory, not a file", "EISDIR");
    if (!info.isFile()) throw new UnreadableFileError(path, `not a regular file (${kindOf(info)})`, "ENOTREG");
    return { fd, size: info.size };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function tooLarge(path: string, maxBytes: number): UnreadableFileError {
  return new UnreadableFileError(path, `larger than ${bytesText(maxBytes)}`, "EFBIG");
}

function bytesText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

function kindOf(info: Pick<Stats, "isCharacterDevice" | "isBlockDevice" | "isFIFO" | "isSocket">): string {
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isFIFO()) return "a FIFO";
  if (info.isSocket()) return "a socket";
  return "not a file";
}
