/**
 * The one id rule of the package: an id is a non-empty string, optionally bounded in length. Used by
 * the v1 contract (conversation, turn, event, tool call, card ids), the
 * legacy adapter, the message document and `./recovery` / `./interactions`
 * (which bound their ids).
 *
 * @module
 */

/**
 * `true` iff `v` is a string of 1 to `maxLength` UTF-16 code units (no upper
 * bound when `maxLength` is omitted). Never throws.
 *
 * @example
 * ```ts
 * import { isId } from "./id.ts";
 * isId("call_1"); // true
 * isId(""); // false
 * isId("x".repeat(300), 256); // false
 * ```
 */
export function isId(v: unknown, maxLength?: number): v is string {
  return typeof v === "string" && v.length > 0 &&
    (maxLength === undefined || v.length <= maxLength);
}

/**
 * `true` iff `v` is a v1 wire id: a non-empty string with no CR, LF or NUL
 * and no lone UTF-16 surrogate (a high surrogate must be followed by a low
 * one). Such an id can travel as an SSE `id:` line, a `Last-Event-ID` or an
 * HTTP header value and come back unchanged (UTF-8 would turn a lone
 * surrogate into U+FFFD). Never throws.
 *
 * @example
 * ```ts
 * import { isWireId } from "./id.ts";
 * isWireId("evt_1"); // true
 * isWireId("e\n1"); // false
 * isWireId("\ud800"); // false: a lone surrogate
 * isWireId("\ud83d\ude00"); // true: a surrogate pair
 * ```
 */
export function isWireId(v: unknown): v is string {
  if (typeof v !== "string" || v.length === 0) return false;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 14) {
      if (c === 0 || c === 10 || c === 13) return false;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const d = v.charCodeAt(++i); // NaN past the end
      if (c > 0xdbff || !(d >= 0xdc00 && d <= 0xdfff)) return false;
    }
  }
  return true;
}

/**
 * The same rule as {@link isWireId} as a regular expression (for schemas):
 * it reads the same in JavaScript with or without the `u` flag, in JSON
 * Schema validators and in Python's `re` (where a surrogate pair is one code
 * point and only a lone surrogate falls in `\ud800-\udfff`).
 */
export const WIRE_ID_PATTERN: RegExp =
  // deno-lint-ignore no-control-regex -- NUL is exactly what the pattern excludes
  /^(?:[^\u0000\n\r\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])+$/;
