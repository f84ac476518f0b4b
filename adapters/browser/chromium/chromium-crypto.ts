import { createDecipheriv, createHash, pbkdf2Sync } from "node:crypto";

/**
 * Chromium's cookie encryption on macOS and Linux (credentials.md section 1.4 and 9.1):
 * `v10`/`v11` + AES-128-CBC, IV of 16 spaces, key = PBKDF2-HMAC-SHA1(password, "saltysalt", 16 bytes),
 * 1003 iterations on macOS and 1 on Linux. From database version 24 the plaintext starts with
 * SHA-256(host_key), which also tells a wrong key from the right one.
 */
const SALT = Buffer.from("saltysalt");
const IV = Buffer.alloc(16, 0x20);
const HASHED_FROM_VERSION = 24;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

export const MAC_ITERATIONS = 1003;
export const LINUX_ITERATIONS = 1;

/** The AES key a Safe Storage password (the text as stored, never base64-decoded) stands for. */
export function deriveKey(password: string, iterations: number): Buffer {
  return pbkdf2Sync(Buffer.from(password, "utf8"), SALT, iterations, 16, "sha1");
}

/** Linux `v10`: the fixed "peanuts" key of the basic store. */
export const PEANUTS_KEY = deriveKey("peanuts", LINUX_ITERATIONS);
/** What Chromium on Linux retries with when its real key fails: the empty password. */
export const EMPTY_PASSWORD_KEY = deriveKey("", LINUX_ITERATIONS);

/** "v10", "v11", or null for a value stored without encryption (old rows). */
export function encryptionVersion(encrypted: Buffer): string | null {
  const prefix = encrypted.subarray(0, 3).toString("latin1");
  return /^v1\d$/.test(prefix) ? prefix : null;
}

function decryptWith(key: Buffer, ciphertext: Buffer): Buffer | null {
  try {
    const decipher = createDecipheriv("aes-128-cbc", key, IV);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    return null; // bad padding: most wrong keys end here
  }
}

/**
 * The cookie's value, trying each key in turn; null when none fits. A key fits when the padding
 * checks out and (version 24 and later) the plaintext starts with SHA-256 of the host key, or
 * (older databases) the plaintext is valid UTF-8.
 */
export function decryptCookie(encrypted: Buffer, hostKey: string, dbVersion: number, keys: readonly Buffer[]): string | null {
  const ciphertext = encrypted.subarray(3);
  if (ciphertext.length === 0 || ciphertext.length % 16 !== 0) return null;
  const hashed = dbVersion >= HASHED_FROM_VERSION;
  const digest = hashed ? createHash("sha256").update(hostKey, "utf8").digest() : null;
  for (const key of keys) {
    const plain = decryptWith(key, ciphertext);
    if (!plain) continue;
    let value = plain;
    if (digest) {
      if (plain.length < 32 || !plain.subarray(0, 32).equals(digest)) continue;
      value = plain.subarray(32);
    }
    try {
      return strictUtf8.decode(value);
    } catch {
      continue;
    }
  }
  return null;
}

/** A value stored without a `v1x` prefix: the bytes as text, or null when they are not UTF-8. */
export function plainCookie(encrypted: Buffer): string | null {
  try {
    return strictUtf8.decode(encrypted);
  } catch {
    return null;
  }
}
