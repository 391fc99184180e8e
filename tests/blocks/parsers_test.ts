import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { AskBlockSchema, ReportBlockSchema } from "../../schemas.ts";
import {
  MAX_BLOCK_BODY_LENGTH,
  parseAskBlock,
  parseAskBody,
  parseGoalOwnerReportRef,
  parseReportBlock,
  parseReportBody,
} from "../../blocks.ts";

const SHA = "0123456789abcdef".repeat(4);
const REF = { schemaVersion: 1, goalId: "g-1", reportId: "r-1", bodySha256: SHA };

Deno.test("parseGoalOwnerReportRef: accepts a valid ref as a fresh copy", () => {
  const out = parseGoalOwnerReportRef(REF);
  assert.deepEqual(out, REF);
  assert.notEqual(out, REF);
});

Deno.test("parseGoalOwnerReportRef: refusals", () => {
  for (
    const bad of [
      null,
      [],
      "x",
      { ...REF, extra: 1 },
      { ...REF, schemaVersion: 2 },
      { ...REF, goalId: " g" },
      { ...REF, goalId: "" },
      { ...REF, reportId: 5 },
      { ...REF, bodySha256: SHA.toUpperCase() },
      { ...REF, bodySha256: SHA.slice(1) },
      { schemaVersion: 1, goalId: "g", reportId: "r" },
      JSON.parse(
        `{"schemaVersion":1,"goalId":"g","reportId":"r","bodySha256":"${SHA}","__proto__":{}}`,
      ),
      Object.assign(Object.create({ inherited: 1 }), REF),
    ]
  ) assert.equal(parseGoalOwnerReportRef(bad), null, JSON.stringify(bad));
});

Deno.test("parseReportBlock: trimming, fallbacks, key omission and order", () => {
  const out = parseReportBlock({
    title: "  Weekly ",
    plans: [
      {
        slug: " p1 ",
        status: " active ",
        summary: "  ",
        items: [
          { id: " a " },
          { text: " t ", status: "done", ref: " wi:1 " },
          { id: " " },
          null,
          5,
        ],
      },
      { title: "  ", slug: "  " },
      null,
      [1, 2],
      { title: "T2", items: "nope" },
    ],
  });
  assert.deepEqual(out, {
    plans: [
      {
        slug: "p1",
        title: "p1",
        status: "active",
        items: [{ id: "a", text: "a" }, { text: "t", status: "done", ref: "wi:1" }],
      },
      { title: "T2" },
    ],
    title: "Weekly",
  });
  assert.deepEqual(Object.keys(out!), ["plans", "title"]);
  assert.deepEqual(Object.keys(out!.plans[0]), ["slug", "title", "status", "items"]);
});

Deno.test("parseReportBlock: null rules (newest version)", () => {
  assert.equal(parseReportBlock(null), null);
  assert.equal(parseReportBlock([]), null);
  assert.equal(parseReportBlock("x"), null);
  assert.equal(parseReportBlock({}), null);
  assert.equal(parseReportBlock({ plans: [] }), null);
  assert.equal(parseReportBlock({ plans: {} }), null);
  assert.equal(parseReportBlock({ plans: [{ title: " " }] }), null);
  assert.equal(parseReportBlock({ plans: [{ title: "x" }], goalReport: null }), null);
  assert.equal(parseReportBlock({ plans: [{ title: "x" }], goalReport: { ...REF, x: 1 } }), null);
  assert.equal(parseReportBlock({ goalReport: REF, plans: "x" }), null);
  assert.equal(parseReportBlock({ plans: [{ title: 5 }] }), null, "numbers are never coerced");
  // goalReport: undefined counts as absent
  assert.deepEqual(parseReportBlock({ plans: [{ title: "x" }], goalReport: undefined }), {
    plans: [{ title: "x" }],
  });
});

Deno.test("parseReportBlock: a valid goalReport allows zero plans; output order plans, goalReport, title", () => {
  const a = parseReportBlock({ title: "G", goalReport: REF });
  assert.deepEqual(a, { plans: [], goalReport: REF, title: "G" });
  assert.deepEqual(Object.keys(a!), ["plans", "goalReport", "title"]);
  assert.deepEqual(parseReportBlock({ goalReport: REF, plans: [{ title: " " }] }), {
    plans: [],
    goalReport: REF,
  });
});

Deno.test("parseAskBlock: spec rules", () => {
  assert.deepEqual(
    parseAskBlock({
      question: " Ship? ",
      options: [
        { id: " y ", description: " d " },
        { id: "n", label: " No " },
        { label: "x" },
        null,
        "s",
      ],
      refs: [" P-1 ", "", 3, "  "],
    }),
    {
      question: "Ship?",
      options: [{ id: "y", label: "y", description: "d" }, { id: "n", label: "No" }],
      refs: ["P-1"],
    },
  );
  assert.deepEqual(parseAskBlock({ question: "q", options: "x", refs: {} }), { question: "q" });
  assert.deepEqual(parseAskBlock({ question: "q", options: [{ label: "x" }], refs: [" "] }), {
    question: "q",
  });
  for (const bad of [null, [], 1, "q", {}, { question: "  " }, { question: 1 }]) {
    assert.equal(parseAskBlock(bad), null);
  }
});

Deno.test("parseAskBody / parseReportBody: JSON errors and the size bound give null", () => {
  assert.equal(parseAskBody("{"), null);
  assert.equal(parseAskBody(""), null);
  assert.deepEqual(parseAskBody(' {"question":"q"} '), { question: "q" });
  assert.equal(parseReportBody("[1]"), null);
  const big = JSON.stringify({ question: "q", pad: "x".repeat(MAX_BLOCK_BODY_LENGTH) });
  assert.equal(parseAskBody(big), null);
  // A deeply nested body does not throw.
  assert.equal(parseAskBody("[".repeat(200_000)), null);
  assert.equal(parseReportBody("[".repeat(100_000) + "]".repeat(100_000)), null);
});

Deno.test("entries may be arrays (spec: any non-null object), the top-level payload may not", () => {
  // An array entry is read like any object: its own named fields count.
  const option = Object.assign([], { id: " a ", description: " d " });
  assert.deepEqual(parseAskBlock({ question: "Q", options: [option, [1, 2], null, "x"] }), {
    question: "Q",
    options: [{ id: "a", label: "a", description: "d" }],
  });
  const item = Object.assign([], { text: " t ", status: " done " });
  const plan = Object.assign([], { slug: "p", items: [item, []] });
  assert.deepEqual(parseReportBlock({ plans: [plan, []] }), {
    plans: [{ slug: "p", title: "p", items: [{ text: "t", status: "done" }] }],
  });
  assert.equal(parseAskBlock(Object.assign([], { question: "Q" })), null);
  assert.equal(parseReportBlock(Object.assign([], { plans: [{ title: "T" }] })), null);
});

Deno.test("parsers read own properties only (inherited and throwing getters)", () => {
  const inherited = Object.create({ question: "q", plans: [{ title: "t" }] });
  assert.equal(parseAskBlock(inherited), null);
  assert.equal(parseReportBlock(inherited), null);
  const throwing = {
    get question() {
      throw new Error("boom");
    },
  };
  assert.equal(parseAskBlock(throwing), null);
});

Deno.test("prototype pollution: __proto__ / constructor keys never reach outputs or Object.prototype", () => {
  const json =
    `{"question":"q","__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},
    "options":[{"id":"__proto__","label":"constructor","__proto__":{"polluted":3}}],"refs":["__proto__"]}`;
  const out = parseAskBody(json)!;
  assert.deepEqual(out, {
    question: "q",
    options: [{ id: "__proto__", label: "constructor" }],
    refs: ["__proto__"],
  });
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  const rep = parseReportBody(`{"__proto__":{"plans":[{"title":"x"}]}}`);
  assert.equal(rep, null, "plans from a __proto__ key are not read");
});

const dangerousKey = fc.constantFrom(
  "__proto__",
  "constructor",
  "prototype",
  "question",
  "options",
  "refs",
  "plans",
  "title",
  "slug",
  "items",
  "id",
  "text",
  "label",
  "status",
  "ref",
  "summary",
  "description",
  "goalReport",
  "schemaVersion",
  "goalId",
  "reportId",
  "bodySha256",
  "toString",
  "hasOwnProperty",
);
const leaf = fc.oneof(
  fc.string({ unit: "grapheme" }),
  fc.constantFrom(" ", " x ", "", "\u2028", SHA, 1),
  fc.integer(),
  fc.constant(null),
  fc.boolean(),
);
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("arr"), tie("obj")),
  arr: fc.array(tie("tree"), { maxLength: 4 }),
  obj: fc.dictionary(dangerousKey, tie("tree"), { maxKeys: 6 }),
}));
/** Mostly JSON round-tripped so `__proto__` becomes an own key, as on the wire. */
const input = fc.oneof(
  tree,
  tree.map((v) => {
    try {
      return JSON.parse(JSON.stringify(v) ?? "null");
    } catch {
      return v;
    }
  }),
);

/** Messy field values: mostly strings (blank, padded, separators), sometimes anything. */
const messy = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 8 }) },
  { weight: 3, arbitrary: fc.constantFrom(" ", " x ", "", "\u2028 y\u00a0", "__proto__", 1) },
  { weight: 1, arbitrary: tree },
);
/** Mixed in below: random trees alone almost never form a block with options or items. */
const askShaped = fc.record({
  question: messy,
  options: fc.oneof(
    fc.array(
      fc.oneof(
        {
          weight: 4,
          arbitrary: fc.record({ id: messy, label: messy, description: messy }, {
            requiredKeys: [],
          }),
        },
        { weight: 1, arbitrary: tree },
      ),
      { maxLength: 4 },
    ),
    tree,
  ),
  refs: fc.oneof(fc.array(messy, { maxLength: 4 }), tree),
}, { requiredKeys: [] });
const itemShaped = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ id: messy, text: messy, status: messy, ref: messy }, {
      requiredKeys: [],
    }),
  },
  { weight: 1, arbitrary: tree },
);
const planShaped = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      slug: messy,
      title: messy,
      status: messy,
      summary: messy,
      items: fc.oneof(fc.array(itemShaped, { maxLength: 4 }), tree),
    }, { requiredKeys: [] }),
  },
  { weight: 1, arbitrary: tree },
);
const reportShaped = fc.record({
  title: messy,
  plans: fc.oneof({ weight: 4, arbitrary: fc.array(planShaped, { maxLength: 4 }) }, {
    weight: 1,
    arbitrary: tree,
  }),
  goalReport: fc.oneof(fc.constant(REF), fc.constant(null), tree),
}, { requiredKeys: [] });
const jsonTrip = (v: unknown) => {
  try {
    return JSON.parse(JSON.stringify(v) ?? "null");
  } catch {
    return v;
  }
};

function checkClean() {
  assert.equal(Object.keys(Object.prototype).length, 0, "Object.prototype polluted");
}

Deno.test("property: parseAskBlock never throws, output is schema-valid and a fixed point (10^4 runs)", () => {
  const hits = { block: 0, options: 0, refs: 0 };
  fc.assert(
    fc.property(fc.oneof(input, askShaped, askShaped.map(jsonTrip)), (v) => {
      const out = parseAskBlock(v);
      if (out !== null) {
        hits.block++;
        if (out.options) hits.options++;
        if (out.refs) hits.refs++;
        assert.ok(AskBlockSchema.safeParse(out).success);
        assert.deepStrictEqual(parseAskBlock(out), out);
        assert.deepStrictEqual(parseAskBlock(JSON.parse(JSON.stringify(out))), out);
      }
      checkClean();
    }),
    { numRuns: 10_000 },
  );
  // The generators must reach the interesting paths, not just null.
  for (const [k, n] of Object.entries(hits)) assert.ok(n >= 500, `only ${n} ask outputs with ${k}`);
});

Deno.test("property: parseReportBlock never throws, output is schema-valid and a fixed point (10^4 runs)", () => {
  const withRef = fc.oneof(
    input,
    input.map((v) => ({ plans: v, goalReport: REF })),
    input.map((v) => ({ plans: [v, v] })),
  );
  const hits = { block: 0, plans: 0, items: 0, title: 0 };
  fc.assert(
    fc.property(fc.oneof(withRef, reportShaped, reportShaped.map(jsonTrip)), (v) => {
      const out = parseReportBlock(v);
      if (out !== null) {
        hits.block++;
        if (out.plans.length > 0) hits.plans++;
        if (out.plans.some((p) => p.items)) hits.items++;
        if (out.title) hits.title++;
        assert.ok(ReportBlockSchema.safeParse(out).success);
        assert.deepStrictEqual(parseReportBlock(out), out);
      }
      checkClean();
    }),
    { numRuns: 10_000 },
  );
  // The generators must reach the interesting paths, not just null.
  for (const [k, n] of Object.entries(hits)) {
    assert.ok(n >= 500, `only ${n} report outputs with ${k}`);
  }
});

Deno.test("property: parseGoalOwnerReportRef never throws (10^4 runs)", () => {
  fc.assert(
    fc.property(input, (v) => {
      const out = parseGoalOwnerReportRef(v);
      if (out !== null) {
        assert.deepEqual(Object.keys(out).sort(), [
          "bodySha256",
          "goalId",
          "reportId",
          "schemaVersion",
        ]);
      }
      checkClean();
    }),
    { numRuns: 10_000 },
  );
});

Deno.test("property: parseAskBody / parseReportBody never throw on any string (10^4 runs each)", () => {
  const text = fc.oneof(fc.string(), fc.json(), input.map((v) => JSON.stringify(v) ?? ""));
  fc.assert(
    fc.property(text, (s) => {
      parseAskBody(s);
      parseReportBody(s);
      checkClean();
    }),
    { numRuns: 10_000 },
  );
});
