/**
 * Internal, allocation-free ASCII case-insensitive tag matching used by the
 * tag parsers and the turn-text scanner. No regular expressions: every call is
 * O(tag length).
 *
 * @module
 */
import { lowerAscii } from "./_util.ts";

/** The two block tag names. */
export type BlockTagName = "ask" | "report";

/** Lower-case literal tags. */
export const OPEN_TAG: Readonly<Record<BlockTagName, string>> = {
  ask: "<ask>",
  report: "<report>",
};
/** Lower-case literal close tags. */
export const CLOSE_TAG: Readonly<Record<BlockTagName, string>> = {
  ask: "</ask>",
  report: "</report>",
};

/** Full match. */
export const MATCH = 1;
/** The input ended while it still matched a prefix. */
export const PARTIAL = 0;
/** Mismatch. */
export const NO_MATCH = -1;

/**
 * Compare `s` at `at` with the lower-case literal `word`, ignoring ASCII case.
 * Returns {@link MATCH}, {@link PARTIAL} (s ended mid-word, prefix matched) or
 * {@link NO_MATCH}.
 */
export function matchAt(s: string, at: number, word: string): number {
  const n = word.length;
  for (let k = 0; k < n; k++) {
    const i = at + k;
    if (i >= s.length) return PARTIAL;
    if (lowerAscii(s.charCodeAt(i)) !== word.charCodeAt(k)) return NO_MATCH;
  }
  return MATCH;
}

/**
 * Index of the first case-insensitive occurrence of the lower-case literal
 * `word` (which starts with `<`) in `s` at or after `from` whose start is
 * `<= lastStart`, or -1. Linear: `indexOf('<')` hops plus O(|word|) checks,
 * never reading past `lastStart + word.length`.
 */
export function findTag(s: string, word: string, from: number, lastStart = Infinity): number {
  // Never search past the last place a match could end: an unbounded
  // indexOf would scan to the end of the input for every too-large block.
  const end = lastStart + word.length;
  if (end < s.length) s = s.slice(0, Math.max(0, end));
  const second = word.charCodeAt(1);
  if (second === 0x2f) {
    // Close tag: "</" has no case variants, so let indexOf find it directly.
    let j = s.indexOf("</", from);
    while (j !== -1 && j <= lastStart) {
      if (matchAt(s, j, word) === MATCH) return j;
      j = s.indexOf("</", j + 2);
    }
    return -1;
  }
  let j = s.indexOf("<", from);
  while (j !== -1 && j <= lastStart) {
    // Cheap pre-check of the second character (a lower-case letter here).
    const c = s.charCodeAt(j + 1);
    if ((c | 0x20) === second && matchAt(s, j, word) === MATCH) return j;
    j = s.indexOf("<", j + 1);
  }
  return -1;
}
