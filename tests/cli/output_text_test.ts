/** The output writers: escaping untrusted text, JSON without recursion, bounded previews. */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { escapeJsonString, escapeText, hasUnsafeChars, maskUnsafe } from "../../src/cli/escape.ts";
import { MAX_INDENT_DEPTH, previewJson, stringifyJson } from "../../src/cli/json_text.ts";
import { UNSAFE_CHAR as UNSAFE } from "./_unsafe.ts";

const anyText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.array(
    fc.constantFrom("a", "\u202e", "\x1b", "\ud800", "\udc00", "\u{e0041}", "\u200d", "é", "\t"),
    { maxLength: 20 },
  ).map((a) => a.join("")),
);

Deno.test("escapeText: no unsafe character survives; safe text is unchanged; TAB only when kept", () => {
  fc.assert(
    fc.property(anyText, (s) => {
      const out = escapeText(s);
      assert.ok(!UNSAFE.test(out), JSON.stringify(out));
      assert.equal(hasUnsafeChars(s), UNSAFE.test(s));
      if (!UNSAFE.test(s)) assert.equal(out, s);
      assert.ok(!UNSAFE.test(escapeText(s, { keepTab: true }).replaceAll("\t", "")));
      assert.ok(!UNSAFE.test(maskUnsafe(s)));
    }),
    { numRuns: 5_000 },
  );
  assert.equal(escapeText("a\u202eb\x1b[2J\u{e0041}"), "a\\u202eb\\u001b[2J\\u{e0041}");
  assert.equal(escapeText("a\tb", { keepTab: true }), "a\tb");
  assert.equal(escapeText("👩‍💻"), "👩‍💻"); // ZWJ sequences stay
  assert.equal(maskUnsafe("a\u202eb"), "a?b");
});

Deno.test("escapeJsonString: valid JSON for the same string, no unsafe character raw", () => {
  fc.assert(
    fc.property(anyText, (s) => {
      const out = escapeJsonString(s);
      assert.ok(!UNSAFE.test(out), out);
      assert.equal(JSON.parse(out), s);
    }),
    { numRuns: 5_000 },
  );
});

Deno.test("stringifyJson is JSON.stringify(v, null, indent) for JSON data (up to escapes)", () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(0, 2), (v, indent) => {
      const ours = stringifyJson(v, indent);
      const theirs = JSON.stringify(v, null, indent);
      if (!UNSAFE.test(theirs.replaceAll("\n", ""))) assert.equal(ours, theirs);
      assert.deepEqual(JSON.parse(ours), JSON.parse(theirs));
    }),
    { numRuns: 3_000 },
  );
  assert.equal(
    stringifyJson({ a: undefined, b: () => 1, c: [undefined] }),
    '{\n  "c": [\n    null\n  ]\n}',
  );
  assert.equal(stringifyJson(undefined), "null");
  assert.equal(stringifyJson({ n: NaN, i: -Infinity, z: -0 }, 0), '{"n":null,"i":null,"z":0}');
});

Deno.test("stringifyJson: 100 000 levels deep without a RangeError; indentation stops at MAX_INDENT_DEPTH", () => {
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = { a: [deep] };
  assert.throws(() => JSON.stringify(deep, null, 2), RangeError); // what inspect used to call
  const text = stringifyJson(deep);
  assert.ok(text.length < 1_300_000, `${text.length} characters`);
  let v = JSON.parse(text);
  let depth = 0;
  while (typeof v === "object") {
    v = v.a[0];
    depth++;
  }
  assert.equal(depth, 100_000);
  // a line break after each of the first MAX_INDENT_DEPTH openings and before their closings
  assert.equal(text.split("\n").length, 2 * MAX_INDENT_DEPTH + 1);
  // a cycle (never in a report, but never a hang either)
  const cyclic: Record<string, unknown> = { x: 1 };
  cyclic.self = cyclic;
  assert.equal(stringifyJson(cyclic, 0), '{"x":1,"self":null}');
});

Deno.test("previewJson: bounded however large or deep the value", () => {
  const deep = JSON.parse("[".repeat(200_000) + "]".repeat(200_000));
  const p = previewJson(deep, 50);
  assert.equal(p, "[".repeat(50) + "…");
  assert.equal(previewJson({ a: "x".repeat(1e6) }, 20), '{"a":"xxxxxxxxxxxxxx…');
  assert.equal(previewJson({ a: [1, 2], b: null }, 100), '{"a":[1,2],"b":null}');
  assert.equal(previewJson("\u202e", 100), '"\\u202e"');
  fc.assert(
    fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 60 }), (v, max) => {
      const out = previewJson(v, max);
      assert.ok(out.length <= max + 1, out);
      if (!out.endsWith("…")) assert.deepEqual(JSON.parse(out), JSON.parse(JSON.stringify(v)));
    }),
    { numRuns: 2_000 },
  );
});
