import assert from "node:assert/strict";
import { z } from "zod";
import fc from "../_helpers/seed.ts";
import {
  cardResponseJsonSchema,
  cardToElicitation,
  cardValueSchema,
  elicitationResultToCardResponse,
  type OpenCardSnapshot,
  validateCardResponse,
} from "../../cards.ts";
import { assertGolden } from "../_helpers/golden.ts";

const OPTIONS = [{ id: "eu", label: "EU", description: "Frankfurt" }, {
  id: "us",
  label: "US",
  style: "danger" as const,
}];
const card = (
  presentation?: OpenCardSnapshot["presentation"],
  extra: Partial<OpenCardSnapshot> = {},
): OpenCardSnapshot => ({
  correlationId: "c1",
  createdAt: 0,
  prompt: "Question?",
  allowDecline: true,
  ...(presentation ? { presentation } : {}),
  ...extra,
});

const EXPRESSIBLE: Record<string, OpenCardSnapshot> = {
  radio: card({ kind: "radio", options: OPTIONS }),
  select: card({ kind: "select", options: OPTIONS }),
  checkbox: card({ kind: "checkbox", options: OPTIONS }),
  text: card({ kind: "text", placeholder: "City" }),
  slider: card({ kind: "slider", min: 1, max: 10 }),
  slider_integer: card({ kind: "slider", min: 1, max: 10, step: 1 }),
  date: card({ kind: "date" }),
  confirm: card(undefined, { details: "This restarts the service." }),
  approval: card(undefined, {
    approval: { title: "Update(calc.js)", question: "Question?", body: ["- a", "+ b"] },
  }),
};

Deno.test("cardToElicitation: MCP form requests (golden fixtures/cards/elicitation.json)", async () => {
  const out: Record<string, unknown> = {};
  for (const [name, c] of Object.entries(EXPRESSIBLE)) {
    const r = cardToElicitation(c);
    assert.equal(r.ok, true, name);
    out[name] = r.ok ? r.value : null;
  }
  const radio = out.radio as {
    params: { requestedSchema: unknown; message: string; mode: string };
  };
  assert.deepEqual(radio.params.requestedSchema, {
    type: "object",
    properties: {
      optionId: {
        type: "string",
        oneOf: [{ const: "eu", title: "EU — Frankfurt" }, { const: "us", title: "US" }],
      },
    },
    required: ["optionId"],
  });
  assert.equal(radio.params.mode, "form");
  const checkbox = out.checkbox as {
    params: { requestedSchema: { properties: Record<string, unknown> } };
  };
  assert.deepEqual(checkbox.params.requestedSchema.properties.optionIds, {
    type: "array",
    minItems: 1,
    items: { anyOf: [{ const: "eu", title: "EU — Frankfurt" }, { const: "us", title: "US" }] },
  });
  assert.deepEqual(
    (out.slider_integer as { params: { requestedSchema: { properties: unknown } } }).params
      .requestedSchema.properties,
    {
      value: { type: "integer", minimum: 1, maximum: 10 },
    },
  );
  assert.deepEqual(
    (out.approval as { params: { message: string } }).params.message,
    "Question?\n\nUpdate(calc.js)\n- a\n+ b",
  );
  await assertGolden("cards/elicitation.json", out);
});

Deno.test("cardToElicitation: typed not-expressible refusals, never a lossy mapping", () => {
  const cases: [OpenCardSnapshot<string>, string][] = [
    [card({ kind: "slider", min: 0, max: 1, step: 0.1 }), "presentation.step"],
    [card({ kind: "slider", min: 0.5, max: 3, step: 1 }), "presentation.step"],
    [card({ kind: "date", min: "2026-01-01" }), "presentation.min"],
    [card({ kind: "date", max: "2026-01-01" }), "presentation.max"],
    [card({ kind: "text" }, { allowDecline: undefined }), "allowDecline"],
    [card({ kind: "text" }, { allowDecline: false }), "allowDecline"],
    [card(undefined, { report: { plans: [{ title: "Ship" }] } }), "report"],
    [{ ...card(), presentation: { kind: "rating" } }, "presentation.kind"],
  ];
  for (const [c, field] of cases) {
    const r = cardToElicitation(c);
    assert.deepEqual(
      r.ok ? null : [r.error.code, r.error.field],
      ["not-expressible", field],
      JSON.stringify(c),
    );
  }
  // allowDeclineDefault mirrors tooldef for cards that omit the field.
  assert.equal(
    cardToElicitation(card({ kind: "text" }, { allowDecline: undefined }), {
      allowDeclineDefault: true,
    }).ok,
    true,
  );
  const broken = cardToElicitation(card({ kind: "radio", options: [] }));
  assert.equal(broken.ok ? null : broken.error.code, "invalid-card");
});

Deno.test("elicitationResultToCardResponse: accept/decline/cancel ↔ submit/decline/cancel, validated", () => {
  const r = (c: OpenCardSnapshot, result: unknown) => elicitationResultToCardResponse(c, result);
  assert.deepEqual(r(EXPRESSIBLE.radio, { action: "accept", content: { optionId: "us" } }), {
    ok: true,
    value: { action: "submit", correlationId: "c1", value: { optionId: "us" } },
  });
  assert.deepEqual(
    r(EXPRESSIBLE.checkbox, { action: "accept", content: { optionIds: ["us", "eu"] } }),
    {
      ok: true,
      value: { action: "submit", correlationId: "c1", value: { optionIds: ["us", "eu"] } },
    },
  );
  assert.deepEqual(r(EXPRESSIBLE.confirm, { action: "accept" }), {
    ok: true,
    value: { action: "submit", correlationId: "c1", value: {} },
  });
  assert.deepEqual(r(EXPRESSIBLE.date, { action: "decline" }), {
    ok: true,
    value: { action: "decline", correlationId: "c1" },
  });
  assert.deepEqual(r(EXPRESSIBLE.date, { action: "cancel" }), {
    ok: true,
    value: { action: "cancel", correlationId: "c1" },
  });
  const codes = (c: OpenCardSnapshot, result: unknown) => {
    const out = r(c, result);
    return out.ok ? null : [out.error.code, out.error.field];
  };
  assert.deepEqual(
    codes(EXPRESSIBLE.checkbox, { action: "accept", content: { optionIds: ["eu", "eu"] } }),
    ["duplicate-option", "value.optionIds[1]"],
  );
  assert.deepEqual(codes(EXPRESSIBLE.text, { action: "accept", content: { text: "   " } }), [
    "blank-text",
    "value.text",
  ]);
  assert.deepEqual(codes(EXPRESSIBLE.slider, { action: "accept", content: { value: 11 } }), [
    "out-of-range",
    "value.value",
  ]);
  assert.deepEqual(codes(EXPRESSIBLE.date, { action: "accept", content: { date: "2026-02-30" } }), [
    "invalid-date",
    "value.date",
  ]);
  assert.deepEqual(codes(EXPRESSIBLE.radio, { action: "accept", content: "eu" }), [
    "invalid-response",
    "content",
  ]);
  assert.deepEqual(codes(EXPRESSIBLE.radio, { action: "ok" }), ["invalid-response", "action"]);
  assert.deepEqual(codes(EXPRESSIBLE.radio, null), ["invalid-response", ""]);
  assert.deepEqual(
    codes(card({ kind: "slider", step: 0.5 }), { action: "accept", content: { value: 1 } }),
    ["not-expressible", "presentation.step"],
  );
});

Deno.test("property: an accepted elicitation maps to exactly what validateCardResponse accepts (10^4 runs)", () => {
  const cards = Object.values(EXPRESSIBLE);
  const content = fc.dictionary(
    fc.constantFrom("optionId", "optionIds", "text", "value", "date", "confirmed", "__proto__"),
    fc.oneof(
      fc.constantFrom("eu", "us", "x", " ", "2026-02-28", true, false, 3, 11),
      fc.array(fc.constantFrom("eu", "us", "zz"), { maxLength: 3 }),
    ),
    { maxKeys: 2 },
  );
  fc.assert(
    fc.property(
      fc.constantFrom(...cards),
      fc.record({ action: fc.constantFrom("accept", "decline", "cancel"), content }, {
        requiredKeys: ["action"],
      }),
      (c, res) => {
        const mapped = elicitationResultToCardResponse(c, res);
        const action = res.action === "accept" ? "submit" : res.action;
        const direct = validateCardResponse(
          c,
          action === "submit"
            ? { action, correlationId: "c1", value: res.content ?? {} }
            : { action, correlationId: "c1" },
        );
        assert.deepStrictEqual(mapped, direct);
      },
    ),
    { numRuns: 10_000 },
  );
});

Deno.test("cardResponseJsonSchema: JSON Schema per kind (golden fixtures/cards/response_json_schema.json)", async () => {
  const all: Record<string, OpenCardSnapshot> = {
    ...EXPRESSIBLE,
    slider_step: card({ kind: "slider", min: 0, max: 1, step: 0.1 }),
    slider_grid: card({ kind: "slider", min: 0, max: 100, step: 5 }),
    date_bounded: card({ kind: "date", min: "2026-01-01", max: "2026-12-31" }),
  };
  const out: Record<string, unknown> = {};
  for (const [name, c] of Object.entries(all)) {
    const r = cardResponseJsonSchema(c);
    assert.equal(r.ok, true, name);
    out[name] = r.ok ? r.value : null;
    assert.equal(Object.hasOwn(out[name] as object, "$schema"), false);
  }
  assert.deepEqual(out.checkbox, {
    type: "object",
    properties: {
      optionIds: {
        type: "array",
        minItems: 1,
        uniqueItems: true,
        items: {
          anyOf: [{ type: "string", const: "eu", title: "EU" }, {
            type: "string",
            const: "us",
            title: "US",
          }],
        },
      },
    },
    required: ["optionIds"],
    additionalProperties: false,
  });
  assert.deepEqual((out.slider_grid as { properties: unknown }).properties, {
    value: { type: "integer", minimum: 0, maximum: 100, multipleOf: 5 },
  });
  await assertGolden("cards/response_json_schema.json", out);
  const custom = cardResponseJsonSchema({ ...card(), presentation: { kind: "rating" } });
  assert.equal(custom.ok ? null : custom.error.code, "not-expressible");
});

Deno.test("cardValueSchema agrees with validateCardResponse on valid answers", () => {
  const answers: [OpenCardSnapshot, unknown][] = [
    [EXPRESSIBLE.radio, { optionId: "eu" }],
    [EXPRESSIBLE.checkbox, { optionIds: ["eu"] }],
    [EXPRESSIBLE.text, { text: "x" }],
    [EXPRESSIBLE.slider, { value: 2.5 }],
    [EXPRESSIBLE.date, { date: "2024-02-29" }],
    [EXPRESSIBLE.confirm, {}],
    [EXPRESSIBLE.approval, { confirmed: true }],
  ];
  for (const [c, v] of answers) {
    const s = cardValueSchema(c);
    assert.ok(s.ok);
    assert.ok((s.value as z.ZodType).safeParse(v).success, JSON.stringify(v));
    assert.ok(validateCardResponse(c, { action: "submit", correlationId: "c1", value: v }).ok);
  }
  const custom = cardValueSchema({ ...card(), presentation: { kind: "rating" } }, {
    rating: () => z.strictObject({ stars: z.int().min(1).max(5) }),
  });
  assert.ok(custom.ok);
});

/** MCP 2025-11-25 `ElicitRequestFormParams.requestedSchema`, restricted to flat primitives (from the spec's schema.ts). */
const choice = z.strictObject({ const: z.string(), title: z.string() });
const McpPrimitive = z.union([
  z.strictObject({
    type: z.literal("string"),
    title: z.string().optional(),
    description: z.string().optional(),
    minLength: z.number().optional(),
    maxLength: z.number().optional(),
    format: z.enum(["email", "uri", "date", "date-time"]).optional(),
    default: z.string().optional(),
  }),
  z.strictObject({
    type: z.enum(["number", "integer"]),
    title: z.string().optional(),
    description: z.string().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    default: z.number().optional(),
  }),
  z.strictObject({
    type: z.literal("string"),
    title: z.string().optional(),
    description: z.string().optional(),
    oneOf: z.array(choice),
    default: z.string().optional(),
  }),
  z.strictObject({
    type: z.literal("array"),
    title: z.string().optional(),
    description: z.string().optional(),
    minItems: z.number().optional(),
    maxItems: z.number().optional(),
    items: z.strictObject({ anyOf: z.array(choice) }),
    default: z.array(z.string()).optional(),
  }),
]);
const McpElicitRequest = z.strictObject({
  method: z.literal("elicitation/create"),
  params: z.strictObject({
    mode: z.literal("form").optional(),
    message: z.string(),
    requestedSchema: z.strictObject({
      type: z.literal("object"),
      properties: z.record(z.string(), McpPrimitive),
      required: z.array(z.string()).optional(),
    }),
  }),
});

Deno.test("cardValueSchema / cardResponseJsonSchema: a non-object card or presentation is invalid-card, never a throw", () => {
  const bad = [
    null,
    "card",
    [],
    { correlationId: "c", createdAt: 0, prompt: "P", presentation: null },
    { correlationId: "c", createdAt: 0, prompt: "P", presentation: "radio" },
  ] as unknown as OpenCardSnapshot[];
  for (const c of bad) {
    const s = cardValueSchema(c);
    assert.equal(s.ok ? "ok" : s.error.code, "invalid-card");
    const j = cardResponseJsonSchema(c);
    assert.equal(j.ok ? "ok" : j.error.code, "invalid-card");
  }
});

Deno.test("regression: cardToElicitation / cardResponseJsonSchema read option and presentation fields as own properties", () => {
  const proto = Object.prototype as Record<string, unknown>;
  const clean = {
    radio: cardToElicitation(card({ kind: "radio", options: [{ id: "a", label: "A" }] })),
    text: cardToElicitation(card({ kind: "text" })),
  };
  const rating = card({ kind: "rating" } as unknown as OpenCardSnapshot["presentation"]);
  const withLabel = card(
    { kind: "radio", options: [{ id: "a" }] } as unknown as OpenCardSnapshot["presentation"],
  );
  const cleanLabel = cardResponseJsonSchema(withLabel);
  const polluted = ["description", "hint", "placeholder", "label"];
  try {
    for (const k of polluted) proto[k] = "POLLUTED";
    assert.deepEqual(
      cardToElicitation(card({ kind: "radio", options: [{ id: "a", label: "A" }] })),
      clean.radio,
    );
    assert.deepEqual(cardToElicitation(card({ kind: "text" })), clean.text);
  } finally {
    for (const k of polluted) delete proto[k];
  }
  // zod's JSON Schema export itself trips over a polluted prototype: build
  // the schema polluted (the title is fixed then), export it clean.
  let built;
  try {
    proto.label = "POLLUTED";
    built = cardValueSchema(withLabel);
  } finally {
    delete proto.label;
  }
  assert.ok(built.ok);
  const json = z.toJSONSchema(built.value) as Record<string, unknown>;
  delete json.$schema;
  assert.deepEqual(json, cleanLabel.ok && cleanLabel.value);
  try {
    // An inherited `kind` is no kind: the card is not a radio card.
    proto.kind = "radio";
    const out = cardValueSchema(rating);
    assert.equal(out.ok ? "ok" : out.error.code, "not-expressible");
  } finally {
    delete proto.kind;
  }
});

Deno.test("property: every expressible card maps to a request valid under the MCP form schema (2,000 runs)", () => {
  const opt = fc.record({
    id: fc.string({ minLength: 1, maxLength: 4 }),
    label: fc.string({ maxLength: 6 }),
    description: fc.string({ maxLength: 6 }),
  }, { requiredKeys: ["id", "label"] });
  const presentation = fc.oneof(
    fc.constant(undefined),
    fc.record({
      kind: fc.constantFrom("radio" as const, "select" as const, "checkbox" as const),
      options: fc.uniqueArray(opt, { selector: (o) => o.id, minLength: 1, maxLength: 4 }),
    }),
    fc.record({ kind: fc.constant("text" as const), placeholder: fc.string({ maxLength: 5 }) }, {
      requiredKeys: ["kind"],
    }),
    fc.record({
      kind: fc.constant("slider" as const),
      min: fc.integer({ min: -5, max: 0 }),
      max: fc.integer({ min: 0, max: 9 }),
      step: fc.constantFrom(1, 0.5, 2),
    }, { requiredKeys: ["kind"] }),
    fc.record({ kind: fc.constant("date" as const), min: fc.constant("2026-01-01") }, {
      requiredKeys: ["kind"],
    }),
  );
  fc.assert(
    fc.property(
      presentation,
      fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
      (p, details) => {
        const c = card(p, details === undefined ? {} : { details });
        const r = cardToElicitation(c);
        if (r.ok) {
          const parsed = McpElicitRequest.safeParse(r.value);
          assert.ok(parsed.success, JSON.stringify(r.value));
          // Every property maps back to the same answer field the card expects.
          for (const k of Object.keys(r.value.params.requestedSchema.properties)) {
            assert.ok(["optionId", "optionIds", "text", "value", "date"].includes(k));
          }
        } else {
          assert.ok(["not-expressible", "invalid-card"].includes(r.error.code));
        }
      },
    ),
    { numRuns: 2_000 },
  );
});

Deno.test("regression: cardToElicitation refuses what would break MCP's schema (titles, approval, details)", () => {
  const code = (c: unknown) => {
    const r = cardToElicitation(c as OpenCardSnapshot);
    return r.ok ? "ok" : `${r.error.code} ${r.error.field}`;
  };
  // MCP's TitledSingleSelect / TitledMultiSelect require `title: string` on every choice.
  for (const kind of ["radio", "select", "checkbox"] as const) {
    assert.equal(
      code(card({ kind, options: [{ id: "a", label: "A" }, { id: "b" }] as never })),
      "invalid-card presentation.options[1].label",
    );
  }
  assert.equal(
    code(card(undefined, { approval: { title: 5, question: "q", body: "zz" } as never })),
    "invalid-card approval",
  );
  assert.equal(code(card(undefined, { details: 42 as never })), "invalid-card details");
  assert.equal(code(card({ kind: "text", placeholder: 7 as never })), "ok");
  const text = cardToElicitation(card({ kind: "text", placeholder: 7 as never }));
  assert.deepEqual(text.ok && text.value.params.requestedSchema.properties, {
    text: { type: "string", minLength: 1 },
  });
  // A polluted prototype does not make a card expressible.
  const inherited = Object.assign(Object.create({ allowDecline: true }), {
    correlationId: "c1",
    createdAt: 0,
    prompt: "Proceed?",
  });
  assert.equal(code(inherited), "not-expressible allowDecline");
});
