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
