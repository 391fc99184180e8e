import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { isId, isWireId, WIRE_ID_PATTERN } from "../../src/_internal/id.ts";
import { readFields, readOptions } from "../../src/_internal/fields.ts";
import { refusal, refuse } from "../../src/_internal/refusal.ts";
import { hostile, HOSTILE_RUNS, revokedProxy, withThrowingGetter } from "../_helpers/hostile.ts";

Deno.test("isId: a non-empty string, optionally bounded", () => {
  assert.equal(isId("a"), true);
  assert.equal(isId(""), false);
  assert.equal(isId(1), false);
  assert.equal(isId(null), false);
  assert.equal(isId(new String("a")), false);
  assert.equal(isId("abc", 3), true);
  assert.equal(isId("abcd", 3), false);
});

/** The oracle: what survives UTF-8 unchanged and fits on one SSE line. */
const sendable = (s: string) =>
  s.length > 0 && !/[\r\n\0]/.test(s) &&
  new TextDecoder().decode(new TextEncoder().encode(s)) === s;

Deno.test("isWireId / WIRE_ID_PATTERN: exactly the non-empty strings an SSE id line carries unchanged", () => {
  const surrogates = fc.constantFrom("\ud800", "\udbff", "\udc00", "\udfff", "\ud83d\ude00");
  const piece = fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 3 }),
    fc.constantFrom("\r", "\n", "\0", "\t", "x"),
    surrogates,
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 6 }).map((p) => p.join("")), (s) => {
      const want = sendable(s);
      assert.equal(isWireId(s), want, JSON.stringify(s));
      assert.equal(WIRE_ID_PATTERN.test(s), want, `pattern ${JSON.stringify(s)}`);
      assert.equal(new RegExp(WIRE_ID_PATTERN.source, "u").test(s), want, `u ${JSON.stringify(s)}`);
    }),
    { numRuns: 5_000 },
  );
  for (const v of [1, null, undefined, new String("a"), ["a"]]) assert.equal(isWireId(v), false);
});

Deno.test("readFields: each field read once; null when unreadable or not an object", () => {
  let reads = 0;
  const o = {
    get a() {
      return ++reads;
    },
    b: "x",
  };
  const r = readFields(o, ["a", "b", "c"]);
  assert.deepEqual({ ...r }, { a: 1, b: "x", c: undefined });
  assert.equal(reads, 1);
  assert.equal(Object.getPrototypeOf(r), null);
  assert.equal(readFields(null, ["a"]), null);
  assert.equal(readFields(5, ["a"]), null);
  assert.equal(readFields(revokedProxy(), ["a"]), null);
  assert.equal(readFields(withThrowingGetter({}, "a", () => Object.create(null)), ["a"]), null);
  // inherited fields are read like own ones (as `options?.x` does)
  assert.equal(readFields(Object.create({ a: 1 }), ["a"])?.a, 1);
});

Deno.test("readOptions: primitives and nullish read as no options; null only when reading threw", () => {
  for (const v of [undefined, null, 5, "s", true]) {
    assert.deepEqual({ ...readOptions(v, ["a"]) }, { a: undefined });
  }
  assert.equal(readOptions(revokedProxy(), ["a"]), null);
  assert.equal(readOptions({ a: 2 }, ["a"])?.a, 2);
});

Deno.test("refuse / refusal: undefined extras are left out", () => {
  assert.deepEqual(refuse("x", "m", { a: 1, b: undefined }), {
    ok: false,
    error: { code: "x", message: "m", a: 1 },
  });
  assert.deepEqual(refusal("x", "m"), { code: "x", message: "m" });
  assert.ok(!Object.hasOwn(refusal("x", "m", { b: undefined }), "b"));
});

Deno.test("property: readFields / readOptions / isId / isWireId never throw on hostile values", () => {
  fc.assert(
    fc.property(hostile(), fc.array(fc.string(), { maxLength: 4 }), (h, keys) => {
      const v = h.build();
      const a = readFields(v, keys);
      assert.ok(a === null || Object.getPrototypeOf(a) === null);
      readOptions(v, keys);
      assert.equal(typeof isId(v), "boolean");
      assert.equal(typeof isWireId(v), "boolean");
    }),
    { numRuns: HOSTILE_RUNS },
  );
});

Deno.test("readItems: a fresh array, holes as undefined; null when not an array or unreadable", async () => {
  const { readItems } = await import("../../src/_internal/fields.ts");
  assert.deepEqual(readItems([1, , 3]), [1, undefined, 3]);
  assert.equal(readItems({ length: 1 }), null);
  assert.equal(readItems(revokedProxy([])), null);
  const throwing = new Proxy([1], {
    get: () => {
      throw new Error("x");
    },
  });
  assert.equal(readItems(throwing), null);
});

Deno.test("readOwnFields: own fields only, each read once; null when unreadable", async () => {
  const { readOwnFields } = await import("../../src/_internal/fields.ts");
  const o = Object.assign(Object.create({ inherited: 1 }), { own: 2 });
  assert.deepEqual({ ...readOwnFields(o, ["own", "inherited"]) }, { own: 2, inherited: undefined });
  assert.equal(readOwnFields(revokedProxy(), ["a"]), null);
  assert.equal(readOwnFields(withThrowingGetter({}, "a", () => 1), ["a"]), null);
});
