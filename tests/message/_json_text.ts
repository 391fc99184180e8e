/**
 * Test helper: fast-check arbitraries of JSON *texts* (not values), written
 * token by token so a text shows what `JSON.stringify` never writes: numbers
 * with `E`, explicit `+` / `-` exponent signs and leading `-0`; every string
 * escape (`\uXXXX` with either hex case, surrogate halves and pairs); raw
 * non-ASCII and astral characters; the literals; keys such as `__proto__` /
 * `constructor` / `prototype` (plain and escaped); and varied whitespace
 * between tokens.
 *
 * @module
 */
import fc from "../_helpers/seed.ts";

const ws = fc.constantFrom("", "", "", " ", "\n", "\n  ", "\t", "\r\n ");

const digits = (min: number, max: number) =>
  fc.array(fc.constantFrom(..."0123456789"), { minLength: min, maxLength: max }).map((d) =>
    d.join("")
  );

/** A JSON number text (any form the grammar allows). */
export const numberText: fc.Arbitrary<string> = fc.tuple(
  fc.constantFrom("", "", "-"),
  fc.oneof(
    fc.constant("0"),
    fc.tuple(fc.constantFrom(..."123456789"), digits(0, 6)).map(([a, b]) => a + b),
  ),
  fc.option(digits(1, 5).map((d) => `.${d}`), { nil: "" }),
  fc.option(
    fc.tuple(fc.constantFrom("e", "E"), fc.constantFrom("", "+", "-"), digits(1, 3)).map((
      [e, s, d],
    ) => e + s + d),
    { nil: "" },
  ),
).map(([s, i, f, e]) => s + i + f + e);

const hex4 = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }),
  fc.integer({ min: 0xd800, max: 0xdfff }),
  fc.integer({ min: 0, max: 0x7f }),
).chain((n) =>
  fc.boolean().map((upper) => {
    const h = n.toString(16).padStart(4, "0");
    return `\\u${upper ? h.toUpperCase() : h}`;
  })
);

const plainChar = fc.oneof(
  fc.constantFrom(..."abc xyz019_-.:,[]{}"),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }),
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
  fc.constantFrom("é", "ß", "中", "😀", "👩‍👩‍👧", "\u2028", "\u00a0"),
).filter((c) => [...c].every((u) => u !== '"' && u !== "\\" && u.charCodeAt(0) >= 0x20));

const ESCAPES = ["\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"];

function stringOf(escapes: string[]): fc.Arbitrary<string> {
  const piece = fc.oneof(
    { weight: 6, arbitrary: plainChar },
    { weight: 2, arbitrary: fc.constantFrom(...escapes) },
    { weight: 2, arbitrary: hex4 },
    { weight: 1, arbitrary: fc.constantFrom("\\ud83d\\ude00", "\\uD83D\\uDE00") },
  );
  return fc.array(piece, { maxLength: 8 }).map((p) => `"${p.join("")}"`);
}

/** A JSON string text, quotes included (every escape, `\"` too). */
export const stringText: fc.Arbitrary<string> = stringOf([...ESCAPES, '\\"']);

/**
 * A key: a string text without the escape `\"` unless `quoteInKeys`, or a key
 * the prototype-poisoning guard looks at.
 */
function keyText(quoteInKeys: boolean): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: quoteInKeys ? stringText : stringOf(ESCAPES) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '"__proto__"',
        '"constructor"',
        '"prototype"',
        '"\\u005f_proto__"',
        '"toString"',
        '""',
      ),
    },
  );
}

/**
 * A JSON text: one value with random formatting, nesting up to `maxDepth`.
 * Keys hold the escape `\"` only with `quoteInKeys` (the AI SDK's partial
 * reader ends a key at any quote, see `partial_json_test.ts`).
 */
export function jsonText(maxDepth = 4, quoteInKeys = false): fc.Arbitrary<string> {
  const { value } = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", maxDepth, withCrossShrink: true },
      fc.constantFrom("true", "false", "null"),
      numberText,
      stringText,
      fc.tuple(fc.array(fc.tuple(ws, tie("value"), ws), { maxLength: 5 }), ws).map(
        ([items, end]) =>
          items.length === 0 ? `[${end}]` : `[${items.map(([a, v, b]) => a + v + b).join(",")}]`,
      ),
      fc.tuple(
        fc.array(fc.tuple(ws, keyText(quoteInKeys), ws, ws, tie("value"), ws), { maxLength: 5 }),
        ws,
      )
        .map(([members, end]) =>
          members.length === 0
            ? `{${end}}`
            : `{${members.map(([a, k, b, c, v, d]) => `${a}${k}${b}:${c}${v}${d}`).join(",")}}`
        ),
    ),
  }));
  return fc.tuple(ws, value, ws).map(([a, v, b]) => a + v + b);
}
