/**
 * The test oracle for "never printed raw": written out independently of
 * `src/cli/escape.ts`, so a character dropped from the escaper's class is
 * caught here.
 *
 * @module
 */

/** Characters no output may carry raw, TAB and LF included. */
export const UNSAFE_CHAR: RegExp =
  // deno-lint-ignore no-control-regex
  /(?![\u200c\u200d])[\p{Cf}\u0000-\u001f\u007f-\u009f\u2028\u2029\u115f\u1160\u3164\uffa0\u{e0000}-\u{e007f}\u{d800}-\u{dfff}]/u;

/** {@link UNSAFE_CHAR} except TAB and LF, which the human output itself uses. */
export const UNSAFE_IN_OUTPUT: RegExp =
  // deno-lint-ignore no-control-regex
  /(?![\u200c\u200d])[\p{Cf}\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u115f\u1160\u3164\uffa0\u{e0000}-\u{e007f}\u{d800}-\u{dfff}]/u;
