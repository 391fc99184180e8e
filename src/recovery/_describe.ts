/**
 * Error text helpers shared by `./recovery` (internal: not exported from any
 * entry point).
 *
 * @module
 */

/** Longest error text copied from a seam or a dispatch into a refusal or a result, in UTF-16 code units. */
export const MAX_DETAIL_LENGTH = 1000;

/** `text` cut to at most `max` UTF-16 code units without splitting a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/**
 * Text of a thrown value, at most {@link MAX_DETAIL_LENGTH} code units;
 * never throws (null-prototype objects, throwing getters and `toString`s).
 */
export function describe(e: unknown): string {
  try {
    const text = e instanceof Error ? e.message : String(e);
    return typeof text === "string" ? clip(text, MAX_DETAIL_LENGTH) : "unprintable error";
  } catch {
    return "unprintable error";
  }
}
