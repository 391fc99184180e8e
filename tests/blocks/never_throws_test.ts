/**
 * "Never throws" for every public function of `./blocks`, against hostile
 * callers: regression tests for the cases issue 10 found, then one property
 * per function with a hostile value (tests/_helpers/hostile.ts) in every
 * argument position, HOSTILE_RUNS runs each.
 *
 * @module
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  MAX_BLOCK_BODY_LENGTH,
  normalizeSegments,
  parseAskBlock,
  parseAskBody,
  parseAskTag,
  parseGoalOwnerReportRef,
  parseReportBlock,
  parseReportBody,
  parseReportTag,
  segmentsToText,
  serializeAskTag,
  serializeReportTag,
  splitTurnText,
  stringifyBlockJson,
  TurnTextScanner,
  TurnTextScannerStream,
  type TurnTextSegment,
} from "../../blocks.ts";
import {
  type Hostile,
  hostile,
  HOSTILE_RUNS,
  hostileLike,
  nullProtoThrowable,
  revokedProxy,
  withThrowingGetter,
} from "../_helpers/hostile.ts";

const ASK = '<ask>{"question":"Merge?"}</ask>';

// --- regressions (each failed on the code before issue 10) ---

Deno.test("regression: splitTurnText(text, null) splits with the default bound", () => {
  assert.deepEqual(splitTurnText("x", null as never), [{ kind: "text", text: "x" }]);
  assert.deepEqual(splitTurnText(ASK, null as never), splitTurnText(ASK));
  assert.deepEqual(new TurnTextScanner(null as never).push("y"), [{ kind: "text", text: "y" }]);
});

Deno.test("regression: options whose maxBlockBodyLength cannot be read mean the default", () => {
  const text = `a ${ASK} b`;
  const expected = splitTurnText(text);
  for (
    const options of [
      withThrowingGetter({}, "maxBlockBodyLength", () => new Error("boom")),
      withThrowingGetter({}, "maxBlockBodyLength", nullProtoThrowable),
      revokedProxy({}),
      new Proxy({}, {
        get() {
          throw nullProtoThrowable();
        },
      }),
    ]
  ) {
    assert.deepEqual(splitTurnText(text, options as never), expected);
    assert.deepEqual(new TurnTextScanner(options as never).push(text), expected);
    new TurnTextScannerStream(options as never);
  }
});

Deno.test("maxBlockBodyLength is read once (a value-changing getter cannot widen the bound)", () => {
  let reads = 0;
  const options = Object.defineProperty({}, "maxBlockBodyLength", {
    get() {
      return reads++ === 0 ? 2 : MAX_BLOCK_BODY_LENGTH;
    },
  });
  const segs = splitTurnText('<ask>{"question":"q"}</ask>', options);
  assert.equal(reads, 1);
  assert.equal(segs[0].kind, "invalid");
  assert.equal((segs[0] as { reason: string }).reason, "too-large");
});

Deno.test("regression: stringifyBlockJson refuses values with no faithful JSON text (null, never a throw)", () => {
  assert.equal(stringifyBlockJson(undefined), null);
  assert.equal(stringifyBlockJson(new Date(NaN)), null);
  assert.equal(stringifyBlockJson({ at: new Date(NaN) }), null);
  assert.equal(stringifyBlockJson([1, NaN]), null);
  assert.equal(stringifyBlockJson({ n: Infinity }), null);
  assert.equal(stringifyBlockJson(() => 1), null);
  assert.equal(stringifyBlockJson(Symbol("s")), null);
  assert.equal(stringifyBlockJson(10n), null);
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  assert.equal(stringifyBlockJson(cycle), null);
  assert.equal(
    stringifyBlockJson({
      toJSON() {
        throw nullProtoThrowable();
      },
    }),
    null,
  );
  assert.equal(stringifyBlockJson(revokedProxy({})), null);
  // Faithful values still serialize (a valid Date, an undefined key dropped as JSON does).
  assert.equal(stringifyBlockJson({ a: "<b>", u: undefined }), '{"a":"\\u003cb\\u003e"}');
  assert.equal(stringifyBlockJson(new Date(0)), '"1970-01-01T00:00:00.000Z"');
  assert.equal(serializeAskTag({ question: "q", n: NaN } as never), null);
  assert.equal(serializeReportTag(undefined as never), null);
});

Deno.test("regression: a too-large block is never cut between the halves of a surrogate pair", () => {
  const cl = "</ask>".length;
  // The emoji's high surrogate is the last character the bound admits.
  const body = "x".repeat(MAX_BLOCK_BODY_LENGTH + cl - 1) + "😀";
  const text = `<ask>${body} tail`;
  const check = (segs: TurnTextSegment[], how: string) => {
    const merged = normalizeSegments(segs);
    assert.equal(segmentsToText(merged), text, how);
    assert.equal(merged[0].kind, "invalid", how);
    const raw = (merged[0] as { raw: string }).raw;
    assert.equal(raw.length, 5 + MAX_BLOCK_BODY_LENGTH + cl - 1, how);
    assert.equal(raw.at(-1), "x", how);
    assert.deepEqual(merged[1], { kind: "text", text: "😀 tail" }, how);
  };
  check(splitTurnText(text), "splitTurnText");
  for (const size of [1, 4, 7, 64, 4096]) {
    const s = new TurnTextScanner();
    const out: TurnTextSegment[] = [];
    for (let i = 0; i < text.length; i += size) out.push(...s.push(text.slice(i, i + size)));
    out.push(...s.end());
    check(out, `${size}-char deltas`);
  }
});

// --- properties: hostile values in every argument position ---

/** Run `f` on fresh hostile values; fail with the recipe labels when it throws. */
function never(
  name: string,
  arbs: fc.Arbitrary<Hostile>[],
  f: (...args: unknown[]) => void,
): void {
  Deno.test(`property: ${name} never throws on hostile input (${HOSTILE_RUNS} runs)`, () => {
    fc.assert(
      fc.property(fc.tuple(...arbs), (recipes) => {
        const args = recipes.map((r) => r.build());
        try {
          f(...args);
        } catch (e) {
          throw new Error(`threw on ${recipes.map(String).join(" / ")}: ${String(e)}`);
        }
      }),
      { numRuns: HOSTILE_RUNS },
    );
  });
}

/** A hostile value, or well-shaped text with block tags (as a recipe). */
const textish: fc.Arbitrary<Hostile> = fc.oneof(
  hostile(),
  fc.array(
    fc.constantFrom(
      "a",
      "<",
      "<ask>",
      "</ask>",
      "<REPORT>",
      "</report>",
      '{"question":"q"}',
      "😀",
      "\uD800",
    ),
    {
      maxLength: 12,
    },
  ).map((parts) => {
    const s = parts.join("");
    return { build: () => s, label: JSON.stringify(s) } as Hostile;
  }),
);

const askShape = fc.record({
  question: fc.string(),
  options: fc.array(fc.record({ id: fc.string(), label: fc.string() }), { maxLength: 3 }),
  refs: fc.array(fc.string(), { maxLength: 3 }),
});
const reportShape = fc.record({
  title: fc.string(),
  plans: fc.array(
    fc.record({
      title: fc.string(),
      items: fc.array(fc.record({ text: fc.string(), status: fc.string() }), { maxLength: 2 }),
    }),
    { maxLength: 3 },
  ),
});
const refShape = fc.record({
  schemaVersion: fc.constant(1),
  goalId: fc.string(),
  reportId: fc.string(),
  bodySha256: fc.constant("a".repeat(64)),
});
const segmentShape = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant("text"), text: fc.string() }),
    fc.record({
      kind: fc.constant("invalid"),
      tag: fc.constant("ask"),
      raw: fc.string(),
      reason: fc.constant("unclosed"),
    }),
  ),
  { maxLength: 5 },
);

const isBlockOrNull = (v: unknown) => v === null || (typeof v === "object" && v !== null);

never("parseAskBlock", [hostileLike(askShape)], (v) => {
  assert.ok(isBlockOrNull(parseAskBlock(v)));
});
never("parseReportBlock", [hostileLike(reportShape)], (v) => {
  assert.ok(isBlockOrNull(parseReportBlock(v)));
});
never("parseGoalOwnerReportRef", [hostileLike(refShape)], (v) => {
  assert.ok(isBlockOrNull(parseGoalOwnerReportRef(v)));
});
never("parseAskBody", [textish], (v) => {
  assert.ok(isBlockOrNull(parseAskBody(v as string)));
});
never("parseReportBody", [textish], (v) => {
  assert.ok(isBlockOrNull(parseReportBody(v as string)));
});
never("parseAskTag", [textish], (v) => {
  assert.ok(isBlockOrNull(parseAskTag(v as string)));
});
never("parseReportTag", [textish], (v) => {
  assert.ok(isBlockOrNull(parseReportTag(v as string)));
});
never("stringifyBlockJson", [fc.oneof(hostileLike(askShape), hostile())], (v) => {
  const json = stringifyBlockJson(v);
  if (json !== null) JSON.parse(json); // whatever it returns is JSON
});
never("serializeAskTag", [hostileLike(askShape)], (v) => {
  const tag = serializeAskTag(v as never);
  assert.ok(tag === null || (tag.startsWith("<ask>") && tag.endsWith("</ask>")));
});
never("serializeReportTag", [hostileLike(reportShape)], (v) => {
  const tag = serializeReportTag(v as never);
  assert.ok(tag === null || (tag.startsWith("<report>") && tag.endsWith("</report>")));
});
never("normalizeSegments", [hostileLike(segmentShape)], (v) => {
  assert.ok(Array.isArray(normalizeSegments(v as never)));
});
never("segmentsToText", [hostileLike(segmentShape)], (v) => {
  const s = segmentsToText(v as never);
  assert.ok(s === null || typeof s === "string");
});
never("splitTurnText", [textish, hostileLike(fc.record({ maxBlockBodyLength: fc.integer() }))], (
  text,
  options,
) => {
  const segs = splitTurnText(text as string, options as never);
  assert.ok(Array.isArray(segs));
  if (typeof text === "string") assert.equal(segmentsToText(segs), text);
});
never(
  "TurnTextScanner (constructor, push, end)",
  [hostileLike(fc.record({ maxBlockBodyLength: fc.integer() })), textish, textish],
  (options, a, b) => {
    const s = new TurnTextScanner(options as never);
    const out = [...s.push(a as string), ...s.push(b as string), ...s.end()];
    const expected = [a, b].filter((x) => typeof x === "string").join("");
    assert.equal(segmentsToText(out), expected);
  },
);
never(
  "TurnTextScanner (write, drain)",
  [hostileLike(fc.record({ maxBlockBodyLength: fc.integer() })), textish, textish],
  (options, a, b) => {
    const s = new TurnTextScanner(options as never);
    s.write(a as string);
    const out = [...s.drain()];
    s.write(b as string);
    out.push(...s.drain(), ...s.end(), ...s.drain());
    s.write(a as string); // after end: ignored
    assert.deepEqual(s.drain(), []);
    const expected = [a, b].filter((x) => typeof x === "string").join("");
    assert.equal(segmentsToText(out), expected);
  },
);
never("TurnTextScannerStream (constructor)", [
  hostileLike(fc.record({ maxBlockBodyLength: fc.integer() })),
], (
  options,
) => {
  assert.ok(new TurnTextScannerStream(options as never) instanceof TransformStream);
});
