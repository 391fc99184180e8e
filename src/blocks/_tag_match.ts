/**
 * The two block tags and an allocation-free, ASCII case-insensitive tag
 * search, shared by the tag parsers and the turn-text scanner (private to
 * `src/blocks/`). No regular expressions: a search is linear.
 *
 * @module
 */

/** A block tag by index: 0 is `ask`, 1 is `report`. */
export type BlockTag = 0 | 1;

/** The tag names by {@link BlockTag}. */
export const TAG_NAMES = ["ask", "report"] as const;
/** Lower-case opening tags by {@link BlockTag}; every character between `<` and `>` is an ASCII letter. */
export const OPEN_TAGS = ["<ask>", "<report>"] as const;
/** Lower-case close tags by {@link BlockTag}. */
export const CLOSE_TAGS = ["</ask>", "</report>"] as const;

/**
 * Whether code unit `c` is the lower-case tag character `t`: an ASCII letter
 * in either case (for a lower-case letter t, `c | 0x20 === t` holds only for
 * t and its upper case), anything else exactly.
 */
function isTagChar(c: number, t: number): boolean {
  return t >= 0x61 ? (c | 0x20) === t : c === t;
}

/** Whether `s` holds the lower-case literal `word` at `at`, ignoring ASCII case. */
function matchesAt(s: string, at: number, word: string): boolean {
  if (at + word.length > s.length) return false;
  for (let k = 0; k < word.length; k++) {
    if (!isTagChar(s.charCodeAt(at + k), word.charCodeAt(k))) return false;
  }
  return true;
}

/**
 * Index of the first case-insensitive occurrence of the lower-case literal
 * `word` (which starts with `<`) in `s` at or after `from` whose start is
 * `<= lastStart`, or -1. Linear: `indexOf("<")` hops plus O(|word|) checks,
 * never reading past `lastStart + word.length`.
 */
export function findTag(s: string, word: string, from: number, lastStart = Infinity): number {
  // Never search past the last place a match could end: an unbounded
  // indexOf would scan to the end of the input for every too-large block.
  const end = lastStart + word.length;
  if (end < s.length) s = s.slice(0, Math.max(0, end));
  // "</" has no case variants, so indexOf finds a close tag's start directly.
  const start = word.charCodeAt(1) === 0x2f ? "</" : "<";
  for (let j = s.indexOf(start, from); j !== -1 && j <= lastStart; j = s.indexOf(start, j + 1)) {
    if (matchesAt(s, j, word)) return j;
  }
  return -1;
}
