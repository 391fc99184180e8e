/**
 * `decodeCardOptions` (v0-wire spec §4.1).
 *
 * @module
 */

/**
 * Decode card options stored in tool-call history: if `value` is a string it
 * is JSON-parsed (a parse failure → `null`); the result is returned if it is
 * an array, else `null`. Elements are NOT validated (use
 * {@link CardOptionSchema} per element). Never throws.
 *
 * @example
 * ```ts
 * import { decodeCardOptions } from "@papercusp/chat-protocol/cards";
 * decodeCardOptions('[{"id":"a","label":"A"}]'); // → [{ id: "a", label: "A" }]
 * decodeCardOptions([1]); // → [1]
 * decodeCardOptions("{"); // → null
 * ```
 */
export function decodeCardOptions(value: unknown): unknown[] | null {
  let v = value;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      return null;
    }
  }
  try {
    return Array.isArray(v) ? v : null;
  } catch {
    return null; // a revoked proxy
  }
}
