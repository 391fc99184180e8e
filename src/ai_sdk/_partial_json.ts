/**
 * Read a possibly truncated JSON text (a tool input that is still streaming)
 * into the value the AI SDK shows for it while it streams, in one linear pass
 * without recursion (any nesting depth) and without throwing.
 *
 * What a cut text reads as (the behaviour of `ai@7.0.173`'s
 * `parsePartialJson`, established by differential tests against it, see
 * `tests/message/partial_json_test.ts`):
 *
 * - open arrays and objects are closed; an object member counts once its
 *   value has started (`{"a":1,"b":` reads as `{a: 1}`);
 * - a cut string keeps what was read, without a cut escape (`"ab\u00`
 *   reads as `"ab"`); a cut key drops its member;
 * - a cut `true` / `false` / `null` reads as the whole literal;
 * - a cut number reads as its longest complete prefix (`-1.` → `-1`,
 *   `2e+` → `2`); a lone `-` reads as nothing;
 * - quirk kept on purpose: a number with an explicit `+` exponent sign that is
 *   an object member's value reads as the digits before its exponent
 *   (`{"a":1e+5,"b"` → `{a: 1}`) until something after it extends the value
 *   (the next member's value starts, or the object closes);
 * - a value holding an own `__proto__` key, or a `constructor` member whose
 *   value is an object with a `prototype` key, reads as `undefined` (the AI
 *   SDK's prototype-poisoning guard).
 *
 * One divergence on valid prefixes, where this reader is right and the AI
 * SDK is not: an object key holding an escaped quote followed by `:`
 * (`{"a\":":1` is the key `a":` with the value 1; `{"\":":` is the key
 * `":` whose value has not started). `parsePartialJson` answers
 * `failed-parse` for such a cut (its repair takes the escaped quote for the
 * end of the key), so `readUIMessageStream` shows the tool input as
 * `undefined` while it streams; this reader gives `{'a":': 1}` and `{}`.
 * Everything else agrees on these texts: a key with an escaped quote not
 * followed by `:` (`{"a\"b":1`), an escaped quote in a value
 * (`{"x":"\":","y":1`), and every complete text (`{"k\":":1}`).
 *
 * Text that is not a prefix of a JSON text: a token that cannot be completed
 * (`tx`, `"\x"`, `01`, a raw control character in a string) makes the
 * whole text unreadable (`undefined`); otherwise reading stops at the first
 * character that cannot continue the text (trailing text after a complete
 * value, a stray comma), and a closing bracket of either kind closes the
 * innermost open container. The AI SDK agrees on trailing text and stray
 * brackets and differs elsewhere on such text.
 *
 * @module
 */

// Where the reader stands between tokens.
/** Expecting a value (root, after `,` in an array, after `:`). */
const VALUE = 0;
/** Just after `[`: a value or `]`. */
const ARRAY_FIRST = 1;
/** After an array element: `,` or `]`. */
const ARRAY_NEXT = 2;
/** Just after `{`: a key or `}`. */
const OBJECT_FIRST = 3;
/** After `,` in an object: a key. */
const OBJECT_KEY = 4;
/** After a key: `:`. */
const OBJECT_COLON = 5;
/** After a member value: `,` or `}`. */
const OBJECT_NEXT = 6;
/** The root value is complete. */
const DONE = 7;

type Container = unknown[] | Record<string, unknown>;

/** Result of scanning one string token. */
interface StringToken {
  /** Decoded text (of the part read, when cut). */
  text: string;
  /** Index just after the closing quote; -1 when the text ended inside the string. */
  end: number;
}

const INVALID = Symbol("invalid");

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** Scan the string whose opening quote is at `start`. */
function scanString(text: string, start: number): StringToken | typeof INVALID {
  let out = "";
  let i = start + 1;
  const n = text.length;
  while (i < n) {
    let j = i;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (c === 0x22 || c === 0x5c) break;
      if (c < 0x20) return INVALID;
      j++;
    }
    if (j > i) out += text.slice(i, j);
    if (j >= n) return { text: out, end: -1 };
    if (text.charCodeAt(j) === 0x22) return { text: out, end: j + 1 };
    // an escape
    if (j + 1 >= n) return { text: out, end: -1 };
    const e = text[j + 1];
    if (e === "u") {
      let code = 0;
      for (let k = j + 2; k < j + 6; k++) {
        if (k >= n) return { text: out, end: -1 };
        const h = hexValue(text.charCodeAt(k));
        if (h < 0) return INVALID;
        code = code * 16 + h;
      }
      out += String.fromCharCode(code);
      i = j + 6;
    } else {
      const s = Object.hasOwn(SIMPLE_ESCAPES, e) ? SIMPLE_ESCAPES[e] : undefined;
      if (s === undefined) return INVALID;
      out += s;
      i = j + 2;
    }
  }
  return { text: out, end: -1 };
}

/** Number token facts (JSON number grammar). */
interface NumberToken {
  /** Index just after the token's last character. */
  end: number;
  /** The whole token is a complete JSON number. */
  complete: boolean;
  /** Length of the token's longest prefix that is a complete number (0: none). */
  completeLength: number;
  /** Length of the integer and fraction part (before `e` / `E`). */
  mantissaLength: number;
  /** The exponent has an explicit `+` sign. */
  plusExponent: boolean;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * Scan a number token from `start` (its first character is `-` or a digit).
 * `INVALID` when a character of the token breaks the grammar (`01`, `1.2.3`,
 * `-a`); a token that merely stops early is not invalid.
 */
function scanNumber(text: string, start: number): NumberToken | typeof INVALID {
  const n = text.length;
  let i = start;
  let completeLength = 0;
  let mantissaLength = 0;
  let plusExponent = false;
  if (text.charCodeAt(i) === 0x2d) i++; // '-'
  if (i >= n) return { end: i, complete: false, completeLength, mantissaLength, plusExponent };
  const first = text.charCodeAt(i);
  if (!isDigit(first)) return INVALID;
  i++;
  if (first !== 0x30) { while (i < n && isDigit(text.charCodeAt(i))) i++; }
  else if (i < n && isDigit(text.charCodeAt(i))) return INVALID; // leading zero
  completeLength = mantissaLength = i - start;
  if (i < n && text.charCodeAt(i) === 0x2e) { // '.'
    i++;
    if (i < n && !isDigit(text.charCodeAt(i))) return INVALID;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
    if (i - start > mantissaLength + 1) completeLength = mantissaLength = i - start;
  }
  const e = i < n ? text.charCodeAt(i) : 0;
  if (e === 0x65 || e === 0x45) { // 'e' | 'E'
    i++;
    const sign = i < n ? text.charCodeAt(i) : 0;
    if (sign === 0x2b || sign === 0x2d) {
      plusExponent = sign === 0x2b;
      i++;
    }
    if (i < n && !isDigit(text.charCodeAt(i))) return INVALID;
    const digits = i;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
    if (i > digits) completeLength = i - start;
  }
  // a cut token ends at the end of the text; any other character must be able to follow a number
  if (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x2e || c === 0x2d || c === 0x2b || c === 0x65 || c === 0x45 || isDigit(c)) {
      return INVALID;
    }
  }
  return {
    end: i,
    complete: completeLength === i - start,
    completeLength,
    mantissaLength,
    plusExponent,
  };
}

const LITERALS: Record<string, { word: string; value: unknown }> = {
  t: { word: "true", value: true },
  f: { word: "false", value: false },
  n: { word: "null", value: null },
};

/** True when `root` holds a key the AI SDK's prototype-poisoning guard refuses. Iterative. */
function isPoisoned(root: object): boolean {
  const stack: object[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown>;
    if (Array.isArray(node)) {
      for (const v of node) if (v !== null && typeof v === "object") stack.push(v);
      continue;
    }
    if (Object.hasOwn(node, "__proto__")) return true;
    if (Object.hasOwn(node, "constructor")) {
      const c = node.constructor;
      if (c !== null && typeof c === "object" && Object.hasOwn(c, "prototype")) return true;
    }
    for (const k of Object.keys(node)) {
      const v = node[k];
      if (v !== null && typeof v === "object") stack.push(v);
    }
  }
  return false;
}

/**
 * The value a complete or truncated JSON text reads as, the way the AI SDK
 * shows a streaming tool input (see the module documentation); `undefined`
 * when nothing can be read. Linear in `text.length`; never throws (a
 * non-string reads as `undefined`).
 */
export function readPartialJson(text: string): unknown {
  if (typeof text !== "string") return undefined;
  const n = text.length;
  const stack: Container[] = [];
  const keys: (string | undefined)[] = [];
  let root: unknown = undefined;
  let at: number = VALUE;
  // a key the prototype-poisoning guard looks at was read: check the final value
  let suspect = false;
  // the `+` exponent quirk: member whose number reads cut unless something extends it
  let cutObject: Record<string, unknown> | undefined;
  let cutKey = "";
  let cutValue = 0;

  /** Attach `v` where the reader stands. */
  const attach = (v: unknown): void => {
    cutObject = undefined;
    const top = stack.length === 0 ? undefined : stack[stack.length - 1];
    if (top === undefined) {
      root = v;
      at = DONE;
    } else if (Array.isArray(top)) {
      top.push(v);
      at = ARRAY_NEXT;
    } else {
      const key = keys[keys.length - 1] as string;
      if (key === "__proto__") {
        // an own key, never the prototype (a later duplicate key may still replace it)
        Object.defineProperty(top, key, {
          value: v,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        suspect = true;
      } else {
        if (key === "constructor") suspect = true;
        top[key] = v;
      }
      at = OBJECT_NEXT;
    }
  };
  const open = (c: Container, first: number): void => {
    attach(c);
    stack.push(c);
    keys.push(undefined);
    at = first;
  };
  const close = (): void => {
    cutObject = undefined;
    stack.pop();
    keys.pop();
    const top = stack.length === 0 ? undefined : stack[stack.length - 1];
    at = top === undefined ? DONE : Array.isArray(top) ? ARRAY_NEXT : OBJECT_NEXT;
  };

  let i = 0;
  scan: while (i < n) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    switch (at) {
      case DONE:
        break scan;
      case ARRAY_NEXT:
      case OBJECT_NEXT:
        if (c === 0x2c) { // ','
          at = at === ARRAY_NEXT ? VALUE : OBJECT_KEY;
          i++;
          continue;
        }
        if (c === 0x5d || c === 0x7d) { // ']' '}'
          close();
          i++;
          continue;
        }
        break scan;
      case OBJECT_FIRST:
      case OBJECT_KEY: {
        if (c === 0x7d && at === OBJECT_FIRST) {
          close();
          i++;
          continue;
        }
        if (c !== 0x22) break scan;
        const s = scanString(text, i);
        if (s === INVALID) return undefined;
        if (s.end < 0) break scan; // a cut key: its member does not exist yet
        keys[keys.length - 1] = s.text;
        at = OBJECT_COLON;
        i = s.end;
        continue;
      }
      case OBJECT_COLON:
        if (c !== 0x3a) break scan; // ':'
        at = VALUE;
        i++;
        continue;
      case ARRAY_FIRST:
        if (c === 0x5d || c === 0x7d) {
          close();
          i++;
          continue;
        }
        // falls through: a value
    }
    // a value starts here
    if (c === 0x22) {
      const s = scanString(text, i);
      if (s === INVALID) return undefined;
      attach(s.text);
      if (s.end < 0) break;
      i = s.end;
    } else if (c === 0x5b) {
      open([], ARRAY_FIRST);
      i++;
    } else if (c === 0x7b) {
      open({}, OBJECT_FIRST);
      i++;
    } else if (c === 0x2d || isDigit(c)) {
      const t = scanNumber(text, i);
      if (t === INVALID) return undefined;
      if (t.complete) {
        attach(Number(text.slice(i, t.end)));
        if (t.plusExponent && stack.length > 0 && !Array.isArray(stack[stack.length - 1])) {
          cutObject = stack[stack.length - 1] as Record<string, unknown>;
          cutKey = keys[keys.length - 1] as string;
          cutValue = Number(text.slice(i, i + t.mantissaLength));
        }
      } else if (t.completeLength > 0) {
        // cut inside the number (the text ends here)
        const inObject = stack.length > 0 && !Array.isArray(stack[stack.length - 1]);
        const len = t.plusExponent && inObject ? t.mantissaLength : t.completeLength;
        attach(Number(text.slice(i, i + len)));
      }
      i = t.end;
      if (!t.complete) break;
    } else {
      const lit = Object.hasOwn(LITERALS, text[i]) ? LITERALS[text[i]] : undefined;
      if (lit === undefined) break;
      const word = lit.word;
      let k = 1;
      while (k < word.length && i + k < n && text.charCodeAt(i + k) === word.charCodeAt(k)) k++;
      if (k < word.length && i + k < n) return undefined; // a literal that cannot be completed
      attach(lit.value);
      i += k;
    }
  }
  if (cutObject !== undefined) cutObject[cutKey] = cutValue;
  if (suspect && typeof root === "object" && root !== null && isPoisoned(root)) {
    return undefined;
  }
  return root;
}
