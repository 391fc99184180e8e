/**
 * Internal: quote untrusted text for a refusal message, bounded so a huge
 * field cannot make a huge message.
 *
 * @module
 */

/** `JSON.stringify` of `s` cut to `max` UTF-16 code units (with `…` when cut). */
export function clip(s: string, max = 80): string {
  return JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s);
}
