/**
 * Safe text for refusals.
 *
 * Every refusal in the package that quotes untrusted input or a thrown value
 * goes through these helpers, so the text is bounded, never splits a
 * surrogate pair, and building it never throws (null-prototype objects,
 * throwing getters, throwing or non-function `toString`, revoked proxies).
 *
 * @module
 */

/** Default bound for a described thrown value, in UTF-16 code units. */
export const MAX_DESCRIBED_LENGTH = 1000;

/**
 * `text` cut to at most `max` UTF-16 code units without splitting a surrogate
 * pair (a high surrogate that would end the cut is dropped too). `max` below
 * 0 or `NaN` counts as 0.
 */
export function clipText(text: string, max: number): string {
  const limit = max > 0 ? Math.floor(max) : 0;
  if (text.length <= limit) return text;
  if (limit === 0) return "";
  const code = text.charCodeAt(limit - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
}

/**
 * `JSON.stringify` of `text` cut to `max` code units (with `…` appended when
 * cut): untrusted text quoted inside a message, bounded and escaped.
 */
export function quoteClipped(text: string, max = 80): string {
  return JSON.stringify(text.length > max ? `${clipText(text, max)}…` : text);
}

/**
 * The text of a thrown value: an `Error`'s `message`, else `String(e)`, cut to
 * `max` code units ({@link MAX_DESCRIBED_LENGTH} by default). Never throws:
 * a value that cannot be printed is described as `"an unprintable value"`.
 */
export function describeThrown(e: unknown, max = MAX_DESCRIBED_LENGTH): string {
  try {
    const text = e instanceof Error ? e.message : String(e);
    return typeof text === "string" ? clipText(text, max) : "an unprintable value";
  } catch {
    return "an unprintable value";
  }
}

/**
 * A short, safe description of an untrusted value for a refusal message
 * ("got …"): strings quoted and cut to 32 code units, numbers, booleans,
 * `null`, `undefined` and bigints printed, anything else by its `typeof`
 * (`"object"`, `"function"`, `"symbol"`), `"array"` for arrays. Never reads a
 * property and never throws.
 */
export function describeValue(v: unknown): string {
  switch (typeof v) {
    case "string":
      return quoteClipped(v, 32);
    case "number":
    case "boolean":
    case "undefined":
      return String(v);
    case "bigint":
      return `${v}n`;
    case "object":
      if (v === null) return "null";
      try {
        return Array.isArray(v) ? "array" : "object";
      } catch {
        return "object"; // a revoked proxy throws from Array.isArray
      }
    default:
      return typeof v;
  }
}
