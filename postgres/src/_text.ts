/**
 * What PostgreSQL `text` can hold. Area-private.
 *
 * @module
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * `true` when `s` is a string a PostgreSQL `text` column stores and reads
 * back unchanged: no NUL character (PostgreSQL refuses it) and no lone
 * surrogate (the client would encode it as U+FFFD, so two different ids
 * could become one). `false` for anything that is not a string.
 */
export function isStorableText(s: unknown): s is string {
  return typeof s === "string" && !s.includes("\u0000") && !LONE_SURROGATE.test(s);
}

const encoder = new TextEncoder();

/**
 * `true` when `s` is more than `maxBytes` UTF-8 bytes. Never encodes a
 * string that is already too long in UTF-16 code units (each is at least
 * one byte), so the work is bounded by `maxBytes`.
 */
export function exceedsUtf8Bytes(s: string, maxBytes: number): boolean {
  return s.length > maxBytes || (s.length * 3 > maxBytes && encoder.encode(s).length > maxBytes);
}

/**
 * Most UTF-8 bytes of an id stored in a key column (turn, effect, event,
 * conversation ids and principals). PostgreSQL refuses a btree index entry
 * over 2,704 bytes, and the widest key holds two such ids; the core allows
 * ids of 512 UTF-16 code units, up to 1,536 bytes each.
 */
export const MAX_ID_BYTES = 1024;

/** {@link isStorableText} and at most {@link MAX_ID_BYTES} UTF-8 bytes. */
export function isStorableId(s: unknown): s is string {
  return isStorableText(s) && !exceedsUtf8Bytes(s, MAX_ID_BYTES);
}
