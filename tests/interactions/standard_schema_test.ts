import assert from "node:assert/strict";
import { z } from "zod";
import fc from "../_helpers/seed.ts";
import type {
  StandardJSONSchemaV1 as SpecJsonSchema,
  StandardSchemaV1 as SpecSchema,
  StandardTypedV1 as SpecTyped,
} from "@standard-schema/spec";
import {
  isStandardSchema,
  MAX_ISSUE_MESSAGE_LENGTH,
  MAX_ISSUE_PATH_LENGTH,
  MAX_VALIDATION_ISSUES,
  type StandardSchemaV1,
  type StandardTypedV1,
  standardValidate,
} from "../../interactions.ts";

// ---- type-level oracle: the declared interface matches @standard-schema/spec 1.1.0 ----
type Eq<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const typeChecks: [
  Eq<StandardSchemaV1.Result<{ a: string }>, SpecSchema.Result<{ a: string }>>,
  Eq<StandardSchemaV1.Issue, SpecSchema.Issue>,
  Eq<StandardSchemaV1.Options, SpecSchema.Options>,
  Eq<StandardSchemaV1.PathSegment, SpecSchema.PathSegment>,
  Eq<StandardSchemaV1<string, number>, SpecSchema<string, number>>,
  Eq<StandardSchemaV1.Props<string, number>, SpecSchema.Props<string, number>>,
  Eq<StandardSchemaV1.Types<string, number>, SpecSchema.Types<string, number>>,
  Eq<StandardTypedV1<string, number>, SpecTyped<string, number>>,
  Eq<StandardTypedV1.Props<string, number>, SpecTyped.Props<string, number>>,
  // 1.1.0: InferInput / InferOutput accept any StandardTypedV1 (e.g. a JSON-Schema-only spec).
  Eq<
    StandardSchemaV1.InferOutput<SpecJsonSchema<string, number>>,
    SpecSchema.InferOutput<SpecJsonSchema<string, number>>
  >,
  Eq<
    StandardSchemaV1.InferInput<SpecJsonSchema<string, number>>,
    SpecSchema.InferInput<SpecJsonSchema<string, number>>
  >,
] = [true, true, true, true, true, true, true, true, true, true, true];

const zodSchema = z.object({ optionId: z.enum(["yes", "no"]), note: z.string().optional() });
// zod 4 schemas are Standard Schemas as they are: no adapter.
const asDeclared: StandardSchemaV1<unknown, z.output<typeof zodSchema>> = zodSchema;
type Inferred = StandardSchemaV1.InferOutput<typeof zodSchema>;
const inferredCheck: Eq<Inferred, { optionId: "yes" | "no"; note?: string | undefined }> = true;

Deno.test("the declared StandardSchemaV1 is type-identical to @standard-schema/spec", () => {
  assert.ok(typeChecks.length === 11 && typeChecks.every((b) => b === true));
  assert.equal(inferredCheck, true);
  assert.equal(isStandardSchema(asDeclared), true);
});

Deno.test("standardValidate: zod 4 success returns the parsed output", async () => {
  const r = await standardValidate(zodSchema, { optionId: "yes", extra: 1 });
  assert.deepEqual(r, { ok: true, value: { optionId: "yes" } });
  const t = await standardValidate(z.string().transform((s) => s.length), "abcd");
  assert.deepEqual(t, { ok: true, value: 4 });
});

Deno.test("standardValidate: zod 4 failure returns issues with paths", async () => {
  const r = await standardValidate(zodSchema, { optionId: "maybe", note: 3 });
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.error.code, "invalid");
  assert.deepEqual(r.error.issues.map((i) => i.path), [["optionId"], ["note"]]);
  assert.ok(r.error.issues.every((i) => typeof i.message === "string" && i.message.length > 0));
});

Deno.test("standardValidate: async zod refinements (Promise results) work", async () => {
  const slow = z.object({ n: z.number() }).refine(async (v) => {
    await new Promise((r) => setTimeout(r, 1));
    return v.n > 0;
  }, { message: "n must be positive", path: ["n"] });
  assert.deepEqual(await standardValidate(slow, { n: 2 }), { ok: true, value: { n: 2 } });
  const bad = await standardValidate(slow, { n: -1 });
  assert.ok(!bad.ok);
  assert.deepEqual(bad.error.issues, [{ message: "n must be positive", path: ["n"] }]);
});

function hand(
  validate: (v: unknown) => unknown,
): StandardSchemaV1 {
  return {
    "~standard": { version: 1, vendor: "hand", validate } as StandardSchemaV1.Props,
  };
}

Deno.test("standardValidate: hand-written sync and async validators", async () => {
  assert.deepEqual(await standardValidate(hand((v) => ({ value: v })), 5), { ok: true, value: 5 });
  assert.deepEqual(
    await standardValidate(hand((v) => Promise.resolve({ value: [v] })), 5),
    { ok: true, value: [5] },
  );
  const sym = Symbol("sym");
  const r = await standardValidate(
    hand(() => ({ issues: [{ message: "m", path: [{ key: "a" }, 0, sym] }] })),
    5,
  );
  assert.deepEqual(r, {
    ok: false,
    error: {
      code: "invalid",
      message: "value failed validation (1 issue)",
      issues: [{ message: "m", path: ["a", 0, "sym"] }],
    },
  });
});

Deno.test("standardValidate: never throws on broken validators or non-schemas", async () => {
  const cases: [unknown, string][] = [
    [
      hand(() => {
        throw new Error("boom");
      }),
      "the validator threw: boom",
    ],
    [hand(() => Promise.reject(new Error("late boom"))), "the validator threw: late boom"],
    [hand(() => null), "the validator returned a malformed result"],
    [hand(() => ({ issues: "nope" })), "the validator returned malformed issues"],
    [hand(() => ({})), "the validator returned neither a value nor issues"],
    [hand(() => ({ issues: [] })), "invalid value"],
    [{}, "the schema is not a Standard Schema (version 1)"],
    [null, "the schema is not a Standard Schema (version 1)"],
    [
      { "~standard": { version: 2, validate: () => ({ value: 1 }) } },
      "the schema is not a Standard Schema (version 1)",
    ],
  ];
  for (const [schema, message] of cases) {
    const r = await standardValidate(schema as StandardSchemaV1, 1);
    assert.ok(!r.ok);
    assert.equal(r.error.issues[0].message, message);
  }
});

Deno.test("standardValidate: copies at most MAX_VALIDATION_ISSUES issues", async () => {
  const many = Array.from({ length: 500 }, (_, i) => ({ message: `m${i}` }));
  const r = await standardValidate(hand(() => ({ issues: many })), 1);
  assert.ok(!r.ok);
  assert.equal(r.error.issues.length, MAX_VALIDATION_ISSUES);
});

Deno.test("standardValidate: property — never rejects, ok iff zod accepts", async () => {
  const schema = z.object({ a: z.string(), b: z.array(z.number()).max(3) });
  await fc.assert(
    fc.asyncProperty(
      fc.anything({ withObjectString: true, withNullPrototype: true }),
      async (v) => {
        const r = await standardValidate(schema, v);
        assert.equal(r.ok, schema.safeParse(v).success);
        if (!r.ok) assert.ok(r.error.issues.length > 0);
      },
    ),
    { numRuns: 2000 },
  );
});

Deno.test("standardValidate: hostile results (throwing getters, odd path keys) are refused, never thrown", async () => {
  const throwing = (what: string) => {
    throw new Error(what);
  };
  const cases: [unknown, string][] = [
    [{ issues: [{ message: "m", path: [Object.create(null)] }] }, "m"],
    [{ issues: [{ message: "m", path: [{ key: Object.create(null) }] }] }, "m"],
    [{
      issues: [{
        get message() {
          return throwing("g1");
        },
      }],
    }, "the validator returned a malformed result"],
    [{
      get issues() {
        return throwing("g2");
      },
    }, "the validator returned a malformed result"],
    [{
      get value() {
        return throwing("g3");
      },
    }, "the validator returned a malformed result"],
  ];
  for (const [result, message] of cases) {
    const r = await standardValidate(hand(() => result), 1);
    assert.ok(!r.ok);
    assert.equal(r.error.issues[0].message, message);
  }
  const odd = await standardValidate(
    hand(() => ({ issues: [{ message: "m", path: [Object.create(null), NaN, -1, 2] }] })),
    1,
  );
  assert.ok(!odd.ok);
  assert.deepEqual(odd.error.issues[0].path, ["?", "NaN", "-1", 2]);
  const badSchema = {
    get "~standard"() {
      return throwing("std");
    },
  };
  const s = await standardValidate(badSchema as unknown as StandardSchemaV1, 1);
  assert.ok(!s.ok);
  assert.equal(s.error.issues[0].message, "the schema is not a Standard Schema (version 1)");
});

Deno.test("standardValidate: issue messages and paths are copied bounded", async () => {
  const r = await standardValidate(
    hand(() => ({ issues: [{ message: "x".repeat(5_000_000), path: Array(100_000).fill("a") }] })),
    1,
  );
  assert.ok(!r.ok);
  assert.equal(r.error.issues[0].message.length, MAX_ISSUE_MESSAGE_LENGTH);
  assert.equal(r.error.issues[0].path?.length, MAX_ISSUE_PATH_LENGTH);
});
