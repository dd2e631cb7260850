/** Deepest nesting of objects and arrays a request may carry (a body, a query). */
export const MAX_INPUT_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Whether the raw JSON text in `bytes` opens objects or arrays deeper than `limit`, counted outside
 * strings (a backslash escapes the byte after it). One pass, no allocation: it runs before
 * JSON.parse, which blocks the event loop for long on a body of deeply nested arrays, and before
 * anything walks the parsed value. UTF-8 is safe to scan byte by byte: the bytes counted here
 * are ASCII and never occur inside a multi-byte character. It does not validate: JSON.parse does.
 */
export function jsonNestsDeeperThan(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index];
    if (inString) {
      if (byte === BACKSLASH) index += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      depth += 1;
      if (depth > limit) return true;
    } else if ((byte === CLOSE_BRACKET || byte === CLOSE_BRACE) && depth > 0) {
      // Never below zero: stray closers first must not buy depth for what follows.
      depth -= 1;
    }
  }
  return false;
}
