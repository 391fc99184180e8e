import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  cardRefusal,
  createCardValidator,
  decodeCardOptions,
  type OpenCardSnapshot,
  validateCardResponse,
} from "../../cards.ts";
import { CardResponseSchema, createCardSchemas, OpenCardSnapshotSchema } from "../../schemas.ts";
import { err, ok } from "../../mod.ts";
import { assertGolden } from "../_helpers/golden.ts";

const OPTIONS = [{ id: "a", label: "Alpha" }, { id: "b", label: "Beta", description: "second" }, {
  id: "c",
  label: "Gamma",
}];
const card = (
  presentation?: OpenCardSnapshot["presentation"],
  extra: Partial<OpenCardSnapshot> = {},
): OpenCardSnapshot => ({
  correlationId: "c1",
  createdAt: 1_764_460_800_000,
  prompt: "Question?",
  ...(presentation ? { presentation } : {}),
  ...extra,
});
const submit = (value: unknown) => ({ action: "submit", correlationId: "c1", value });

/** Per kind: the card, and answers expected valid / refused. Recorded as golden fixtures. */
const CASES: Record<string, { card: OpenCardSnapshot; valid: unknown[]; refused: unknown[] }> = {
  radio: {
    card: card({ kind: "radio", options: OPTIONS }),
    valid: [submit({ optionId: "a" }), submit({ optionId: "c" }), {
      action: "cancel",
      correlationId: "c1",
    }],
    refused: [
      submit({ optionId: "z" }),
      submit({}),
      submit({ optionId: 1 }),
      submit({ optionId: "a", extra: true }),
      submit({ optionIds: ["a"] }),
      { action: "submit", correlationId: "other", value: { optionId: "a" } },
      { action: "decline", correlationId: "c1" },
      { action: "submit", correlationId: "c1" },
      { action: "maybe", correlationId: "c1" },
      "submit",
    ],
  },
  select: {
    card: card({ kind: "select", options: OPTIONS }),
    valid: [submit({ optionId: "b" })],
    refused: [submit({ optionId: "B" }), submit({ text: "b" })],
  },
  checkbox: {
    card: card({ kind: "checkbox", options: OPTIONS }),
    valid: [submit({ optionIds: ["a"] }), submit({ optionIds: ["c", "a", "b"] })],
    refused: [
      submit({ optionIds: [] }),
      submit({ optionIds: ["a", "a"] }),
      submit({ optionIds: ["a", "zz"] }),
      submit({ optionIds: "a" }),
      submit({ optionIds: ["a", 2] }),
      submit({}),
    ],
  },
  text: {
    card: card({ kind: "text", placeholder: "Your name", multiline: false }, {
      allowDecline: true,
    }),
    valid: [submit({ text: "Ada" }), submit({ text: "  padded  " }), {
      action: "decline",
      correlationId: "c1",
    }],
    refused: [submit({ text: "" }), submit({ text: " \n\t " }), submit({ text: 5 }), submit({})],
  },
  slider: {
    card: card({ kind: "slider", min: 0, max: 1, step: 0.1 }),
    valid: [
      submit({ value: 0 }),
      submit({ value: 0.3 }),
      submit({ value: 0.7000000000000001 }),
      submit({ value: 1 }),
    ],
    refused: [
      submit({ value: 0.35 }),
      submit({ value: 1.1 }),
      submit({ value: -0.1 }),
      submit({ value: Number.NaN }),
      submit({ value: "0.5" }),
      submit({}),
    ],
  },
  slider_offset: {
    card: card({ kind: "slider", min: 5, max: 50, step: 5 }),
    valid: [submit({ value: 5 }), submit({ value: 50 })],
    refused: [submit({ value: 7 }), submit({ value: 0 }), submit({ value: Infinity })],
  },
  date: {
    card: card({ kind: "date", min: "2026-01-01", max: "2026-12-31" }),
    valid: [submit({ date: "2026-02-28" }), submit({ date: "2026-12-31" })],
    refused: [
      submit({ date: "2026-02-29" }),
      submit({ date: "2025-12-31" }),
      submit({ date: "2027-01-01" }),
      submit({ date: "2026-1-05" }),
      submit({ date: "2026-13-01" }),
      submit({ date: "2026-06-01T00:00:00Z" }),
      submit({}),
    ],
  },
  confirm: {
    card: card(undefined, { prompt: "Proceed?" }),
    valid: [submit({}), submit({ confirmed: true }), submit({ text: "yes, go" })],
    refused: [
      submit({ confirmed: false }),
      submit({ text: "  " }),
      submit({ confirmed: true, text: "x" }),
      submit({ other: 1 }),
    ],
  },
  approval: {
    card: card(undefined, {
      prompt: "Apply this edit?",
      allowDecline: true,
      approval: { title: "Update(calc.js)", question: "Apply this edit?", body: ["- a", "+ b"] },
    }),
    valid: [submit({}), submit({ confirmed: true }), { action: "decline", correlationId: "c1" }],
    refused: [submit({ text: "ok" }), submit({ confirmed: "yes" })],
  },
  report_only: {
    card: card(undefined, { prompt: "Status", report: { plans: [{ title: "Ship" }] } }),
    valid: [submit({}), submit({ confirmed: true })],
    refused: [submit({ confirmed: 1 }), { action: "decline", correlationId: "c1" }],
  },
  invalid_cards: {
    card: card({ kind: "radio", options: [] }),
    valid: [],
    refused: [submit({ optionId: "a" })],
  },
};

for (const [name, c] of Object.entries(CASES)) {
  Deno.test(`validateCardResponse: ${name} (golden fixtures/cards/${name}.json)`, async () => {
    assert.ok(OpenCardSnapshotSchema.safeParse(c.card).success, "fixture card is a valid snapshot");
    const valid = c.valid.map((r) => ({ response: r, result: validateCardResponse(c.card, r) }));
    const refused = c.refused.map((r) => ({
      response: r,
      result: validateCardResponse(c.card, r),
    }));
    for (const v of valid) {
      assert.equal(v.result.ok, true, JSON.stringify(v));
      if (v.result.ok) assert.ok(CardResponseSchema.safeParse(v.result.value).success);
    }
    for (const r of refused) {
      assert.equal(r.result.ok, false, JSON.stringify(r));
      if (!r.result.ok) assert.equal(typeof r.result.error.field, "string");
    }
    await assertGolden(`cards/${name}.json`, { card: c.card, valid, refused });
  });
}

Deno.test("validateCardResponse: refusals name the field and the reason", () => {
  const r = validateCardResponse(CASES.checkbox.card, submit({ optionIds: ["a", "b", "a"] }));
  assert.deepEqual(r.ok ? null : { code: r.error.code, field: r.error.field }, {
    code: "duplicate-option",
    field: "value.optionIds[2]",
  });
  const m = validateCardResponse(CASES.radio.card, {
    action: "submit",
    correlationId: "zz",
    value: {},
  });
  assert.deepEqual(m.ok ? null : { code: m.error.code, field: m.error.field }, {
    code: "correlation-mismatch",
    field: "correlationId",
  });
  const bad = validateCardResponse(card({ kind: "slider", min: "0" }), submit({ value: 1 }));
  assert.deepEqual(bad.ok ? null : { code: bad.error.code, field: bad.error.field }, {
    code: "invalid-card",
    field: "presentation.min",
  });
  const dupCard = validateCardResponse(
    card({ kind: "radio", options: [{ id: "a", label: "A" }, { id: "a", label: "B" }] }),
    submit({ optionId: "a" }),
  );
  assert.equal(dupCard.ok ? null : dupCard.error.field, "presentation.options[1].id");
});

Deno.test("validateCardResponse: decline default — false on the wire, true with allowDeclineDefault (tooldef)", () => {
  const c = card({ kind: "text" });
  const decline = { action: "decline", correlationId: "c1" };
  assert.equal(validateCardResponse(c, decline).ok, false);
  assert.equal(validateCardResponse(c, decline, { allowDeclineDefault: true }).ok, true);
  assert.equal(
    validateCardResponse({ ...c, allowDecline: false }, decline, { allowDeclineDefault: true }).ok,
    false,
  );
  assert.equal(validateCardResponse({ ...c, allowDecline: true }, decline).ok, true);
});

Deno.test("validateCardResponse: only allowDeclineDefault === true allows decline; null options do not throw", () => {
  const c = card({ kind: "text" });
  const decline = { action: "decline", correlationId: "c1" };
  for (const d of ["yes", 1, {}, null]) {
    const out = validateCardResponse(c, decline, { allowDeclineDefault: d as unknown as boolean });
    assert.equal(out.ok ? "ok" : out.error.code, "decline-not-allowed");
  }
  const nullOptions = null as unknown as { allowDeclineDefault?: boolean };
  assert.equal(validateCardResponse(c, decline, nullOptions).ok, false);
  assert.equal(
    validateCardResponse(
      c,
      { action: "submit", correlationId: "c1", value: { text: "x" } },
      nullOptions,
    )
      .ok,
    true,
  );
});

Deno.test("validateCardResponse: output is rebuilt (unknown keys dropped, no prototype pollution)", () => {
  const r = validateCardResponse(
    CASES.radio.card,
    JSON.parse('{"action":"submit","correlationId":"c1","value":{"optionId":"a"},"extra":1}'),
  );
  assert.deepEqual(r, {
    ok: true,
    value: { action: "submit", correlationId: "c1", value: { optionId: "a" } },
  });
  const p = validateCardResponse(
    CASES.radio.card,
    JSON.parse(
      '{"action":"submit","correlationId":"c1","value":{"optionId":"a","__proto__":{"polluted":1}}}',
    ),
  );
  assert.equal(p.ok ? null : p.error.field, "value.__proto__");
  const inherited = validateCardResponse(
    CASES.radio.card,
    Object.create({ action: "cancel", correlationId: "c1" }),
  );
  assert.equal(inherited.ok, false);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("extension point: a product's custom 'rating' kind", () => {
  type Kind = "rating";
  const validator = createCardValidator<Kind>({
    kinds: {
      rating: (p, value) => {
        const max = typeof p.max === "number" ? p.max : 5;
        const stars = value.stars;
        if (Object.keys(value).some((k) => k !== "stars")) {
          return err(cardRefusal("unexpected-field", "value", "only stars"));
        }
        return typeof stars === "number" && Number.isInteger(stars) && stars >= 1 && stars <= max
          ? ok({ stars })
          : err(cardRefusal("out-of-range", "value.stars", `1 to ${max} stars`));
      },
    },
  });
  const rating: OpenCardSnapshot<"radio" | Kind> = {
    correlationId: "r1",
    createdAt: 0,
    prompt: "Rate it",
    presentation: { kind: "rating", max: 5 },
  };
  assert.deepEqual(
    validator.validate(rating, { action: "submit", correlationId: "r1", value: { stars: 4 } }),
    {
      ok: true,
      value: { action: "submit", correlationId: "r1", value: { stars: 4 } },
    },
  );
  const bad = validator.validate(rating, {
    action: "submit",
    correlationId: "r1",
    value: { stars: 6 },
  });
  assert.deepEqual(bad.ok ? null : [bad.error.code, bad.error.field], [
    "out-of-range",
    "value.stars",
  ]);
  // Built-in kinds still work and cannot be overridden; the default validator does not know "rating".
  assert.equal(validator.validate(CASES.radio.card, submit({ optionId: "a" })).ok, true);
  const unknown = validateCardResponse(rating, {
    action: "submit",
    correlationId: "r1",
    value: { stars: 4 },
  });
  assert.equal(unknown.ok ? null : unknown.error.code, "unknown-kind");
  assert.equal(validator.hasKind("rating"), true);
  // A validator registered under a built-in name is ignored.
  const hijack = createCardValidator({
    kinds: { radio: () => ok({ hijacked: true }) } as unknown as Record<never, never>,
  });
  assert.equal(hijack.hasKind("radio"), false);
  const r = hijack.validate(CASES.radio.card, submit({ optionId: "zzz" }));
  assert.equal(r.ok ? "ok" : r.error.code, "unknown-option");
  assert.deepEqual(hijack.validate(CASES.radio.card, submit({ optionId: "a" })), {
    ok: true,
    value: { action: "submit", correlationId: "c1", value: { optionId: "a" } },
  });
});

Deno.test("decodeCardOptions: spec rules", () => {
  assert.deepEqual(decodeCardOptions('[{"id":"a","label":"A"}]'), [{ id: "a", label: "A" }]);
  assert.deepEqual(decodeCardOptions([1, 2]), [1, 2]);
  assert.equal(decodeCardOptions("{"), null);
  assert.equal(decodeCardOptions('{"a":1}'), null);
  assert.equal(decodeCardOptions(null), null);
  assert.equal(decodeCardOptions(5), null);
});

Deno.test("property: validateCardResponse never throws and accepts only CardResponse shapes (10^4 runs)", () => {
  const cards = Object.values(CASES).map((c) => c.card);
  const val = fc.oneof(
    fc.anything(),
    fc.record({ optionId: fc.constantFrom("a", "b", "z") }),
    fc.record({ optionIds: fc.array(fc.constantFrom("a", "b", "c", "a")) }),
    fc.record({ value: fc.double() }),
    fc.record({ date: fc.string() }),
    fc.record({ text: fc.string() }),
    fc.dictionary(fc.constantFrom("__proto__", "constructor", "confirmed"), fc.anything()),
  );
  const resp = fc.oneof(
    fc.anything(),
    fc.record({
      action: fc.constantFrom("submit", "decline", "cancel", "x"),
      correlationId: fc.constantFrom("c1", "c2"),
      value: val,
    }, { requiredKeys: ["action"] }),
  );
  fc.assert(
    fc.property(fc.constantFrom(...cards), resp, (c, r) => {
      const out = validateCardResponse(c, r);
      if (out.ok) assert.ok(CardResponseSchema.safeParse(out.value).success);
      else assert.equal(typeof out.error.code, "string");
      assert.equal(Object.keys(Object.prototype).length, 0);
    }),
    { numRuns: 10_000 },
  );
});

Deno.test("OpenCardSnapshotSchema: shapes, custom kinds via createCardSchemas", () => {
  const base = { correlationId: "c", createdAt: 0, prompt: "p" };
  assert.ok(
    OpenCardSnapshotSchema.safeParse({ ...base, report: { plans: [{ title: " untrimmed " }] } })
      .success,
  );
  assert.ok(
    !OpenCardSnapshotSchema.safeParse({ ...base, presentation: { kind: "rating" } }).success,
  );
  assert.ok(!OpenCardSnapshotSchema.safeParse({ prompt: "p", createdAt: 0 }).success);
  assert.ok(!OpenCardSnapshotSchema.safeParse({ ...base, timeoutMs: -1 }).success);
  const { OpenCardSnapshotSchema: Extended } = createCardSchemas(["rating"]);
  assert.ok(Extended.safeParse({ ...base, presentation: { kind: "rating", max: 5 } }).success);
  assert.ok(!Extended.safeParse({ ...base, presentation: { kind: "stars" } }).success);
  assert.ok(CardResponseSchema.safeParse({ action: "decline", correlationId: "c" }).success);
  assert.ok(!CardResponseSchema.safeParse({ action: "submit", correlationId: "c" }).success);
});

Deno.test("regression: slider step tolerance never accepts half a step at large magnitudes", () => {
  const c = card({ kind: "slider", min: 0, step: 1 });
  assert.equal(validateCardResponse(c, submit({ value: 1e12 })).ok, true);
  for (const value of [1e9 + 0.5, 1e12 + 0.5, 123_456_789.25]) {
    const r = validateCardResponse(c, submit({ value }));
    assert.equal(r.ok, false, `${value} must be off-step`);
    assert.equal(!r.ok && r.error.code, "off-step");
  }
  // Float grids still accept the binary-rounded grid points, small and large.
  const tenth = card({ kind: "slider", min: 0, max: 1e9, step: 0.1 });
  for (const value of [0.30000000000000004, 0.7000000000000001, 123_456_789.1]) {
    assert.equal(validateCardResponse(tenth, submit({ value })).ok, true, `${value} is on step`);
  }
  assert.equal(validateCardResponse(tenth, submit({ value: 123_456_789.15 })).ok, false);
});

Deno.test("regression: card fields are read as own properties (a polluted prototype grants nothing)", () => {
  const inherited = Object.assign(
    Object.create({ allowDecline: true, presentation: { kind: "text" } }),
    { correlationId: "c1", createdAt: 0, prompt: "Proceed?" },
  ) as OpenCardSnapshot;
  const decline = validateCardResponse(inherited, { action: "decline", correlationId: "c1" });
  assert.equal(!decline.ok && decline.error.code, "decline-not-allowed");
  // The inherited text presentation is ignored: this is a confirm card.
  assert.equal(validateCardResponse(inherited, submit({ confirmed: true })).ok, true);
  const slider = card(Object.assign(Object.create({ step: 5 }), { kind: "slider", min: 0 }));
  assert.equal(validateCardResponse(slider, submit({ value: 3 })).ok, true);
});

Deno.test("regression: checkbox/radio answers are checked in linear work (no per-option array scans)", () => {
  const n = 5_000;
  const options = Array.from({ length: n }, (_, i) => ({ id: `o${i}`, label: `L${i}` }));
  const all = options.map((o) => o.id);
  // Count the array elements Array.prototype.includes / indexOf examine.
  const { includes, indexOf } = Array.prototype;
  let scanned = 0;
  Array.prototype.includes = function (this: unknown[], ...args: [unknown, number?]) {
    scanned += this.length;
    return includes.apply(this, args);
  };
  Array.prototype.indexOf = function (this: unknown[], ...args: [unknown, number?]) {
    scanned += this.length;
    return indexOf.apply(this, args);
  };
  try {
    const many = validateCardResponse(
      card({ kind: "checkbox", options }),
      submit({ optionIds: all }),
    );
    assert.equal(many.ok, true);
    const one = validateCardResponse(
      card({ kind: "radio", options }),
      submit({ optionId: "o4999" }),
    );
    assert.equal(one.ok, true);
  } finally {
    Array.prototype.includes = includes;
    Array.prototype.indexOf = indexOf;
  }
  assert.ok(scanned <= 10 * n, `${scanned} array elements scanned for ${n} options`);
});

Deno.test("regression: untrusted ids and keys are quoted bounded in refusal messages", () => {
  const huge = "x".repeat(100_000);
  const radio = card({ kind: "radio", options: OPTIONS });
  for (
    const r of [
      validateCardResponse(radio, submit({ optionId: huge })),
      validateCardResponse(radio, submit({ [huge]: 1 })),
      validateCardResponse(
        card({ kind: "checkbox", options: OPTIONS }),
        submit({ optionIds: [huge] }),
      ),
      validateCardResponse(
        card({ kind: "checkbox", options: OPTIONS }),
        submit({ optionIds: ["a", "a\n" + huge] }),
      ),
    ]
  ) {
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.error.message.length < 200, !r.ok ? r.error.message.slice(0, 80) : "");
  }
  const r = validateCardResponse(radio, submit({ optionId: "zz" }));
  assert.equal(!r.ok && r.error.message, `"zz" is not one of this card's options`);
});
