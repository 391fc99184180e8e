/**
 * Escaping untrusted text for output. A capture is untrusted: a raw ESC can
 * drive the terminal (colours, cursor moves, hyperlinks, title changes), a
 * newline can forge an output line, and bidirectional or invisible format
 * characters can make text read differently from what it is ("Trojan Source",
 * CVE-2021-42574) or hide text altogether (Unicode tag characters smuggled in
 * model output). Everything `inspect` prints that came from a capture goes
 * through {@link escapeText} (human output) or is written by
 * `stringifyJson` (`--json`), which uses {@link escapeJsonString}.
 *
 * @module
 */

/**
 * The characters never printed raw, as one `u`-flag class:
 * - C0 controls U+0000–U+001F (TAB and LF only where a caller keeps them),
 *   DEL U+007F and C1 controls U+0080–U+009F;
 * - every invisible or reordering format character (Unicode category Cf:
 *   U+00AD soft hyphen, U+061C Arabic letter mark, U+180E Mongolian vowel
 *   separator, U+200B zero width space, U+200E/U+200F LRM/RLM, U+202A–U+202E
 *   embeddings and overrides, U+2060–U+2064, U+2066–U+2069 isolates,
 *   U+206A–U+206F, U+FEFF, U+FFF9–U+FFFB, U+E0001 and the U+E0020–U+E007F
 *   tag characters, U+1D173–U+1D17A musical format characters, U+0600–U+0605,
 *   …), and the unassigned tag block U+E0000–U+E007F;
 * - U+2028/U+2029 line and paragraph separators;
 * - the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, letters that
 *   render as blank space (and so can hide text or forge names);
 * - lone surrogates (a string that is not well-formed UTF-16).
 *
 * U+200C/U+200D (ZWNJ/ZWJ, also Cf) stay: scripts and emoji sequences need them.
 */
const UNSAFE_CLASS = "(?![\\u200c\\u200d])" +
  "[\\p{Cf}\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u115f\\u1160\\u3164\\uffa0" +
  "\\u{e0000}-\\u{e007f}\\u{d800}-\\u{dfff}]";

const UNSAFE = new RegExp(UNSAFE_CLASS, "u");
const UNSAFE_ALL = new RegExp(UNSAFE_CLASS, "gu");

/** Whether `text` holds a character {@link escapeText} would escape (TAB and LF included). */
export function hasUnsafeChars(text: string): boolean {
  return UNSAFE.test(text);
}

function hex4(code: number): string {
  return code.toString(16).padStart(4, "0");
}

/** Options of {@link escapeText}. */
export interface EscapeOptions {
  /** Keep TAB raw (text shown as a block). Default `false`. */
  keepTab?: boolean;
}

/**
 * `text` with every unsafe character (see the module doc) replaced by a
 * visible escape: `\u001b` for a BMP character, `\u{e0041}` for a tag
 * character. The result holds no control, bidi or invisible format character
 * and no line break, so it stays on its one output line. Never throws.
 */
export function escapeText(text: string, options: EscapeOptions = {}): string {
  if (!UNSAFE.test(text)) return text;
  const keepTab = options.keepTab === true;
  return text.replace(UNSAFE_ALL, (c) => {
    if (keepTab && c === "\t") return c;
    const code = c.codePointAt(0)!;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${hex4(code)}`;
  });
}

/**
 * `text` with every unsafe character (see the module doc; TAB and LF
 * included) replaced by `mask`: for column layouts where an escape would
 * break alignment (`inspect agents` tables). Never throws.
 */
export function maskUnsafe(text: string, mask = "?"): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, mask) : text;
}

/**
 * A JSON string literal for `text` (quotes included) in which every unsafe
 * character is a `\uXXXX` escape (astral tag characters as an escaped
 * surrogate pair). `JSON.parse` of it gives `text` back exactly: escaping
 * changes the bytes, never the value. Never throws.
 */
export function escapeJsonString(text: string): string {
  const quoted = JSON.stringify(text); // escapes `"`, `\`, C0 and lone surrogates
  if (!UNSAFE.test(quoted)) return quoted;
  return quoted.replace(UNSAFE_ALL, (c) => {
    if (c.length === 2) return `\\u${hex4(c.charCodeAt(0))}\\u${hex4(c.charCodeAt(1))}`;
    return `\\u${hex4(c.charCodeAt(0))}`;
  });
}
