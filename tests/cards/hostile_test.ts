/**
 * Every public cards function against hostile values in every argument
 * position, 10^4 runs each. All document "never throws" (a typed
 * `CardRefusal` instead), except what a caller's own code throws (a product
 * kind's schema factory in `cardValueSchema`) and a `TypeError` for
 * `createCardValidator` options it cannot read (a programmer's mistake).
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  cardRefusal,
  cardResponseJsonSchema,
  cardToElicitation,
  cardValueSchema,
  createCardValidator,
  decodeCardOptions,
  elicitationResultToCardResponse,
  isIsoDate,
  validateCardResponse,
} from "../../cards.ts";
import { arg, assertResult, attack } from "../_helpers/attack.ts";
import { nullProtoThrowable, revokedProxy, withThrowingGetter } from "../_helpers/hostile.ts";

const options = [{ id: "a", label: "A" }, { id: "b", label: "B", description: "second" }];
const card = fc.oneof(
  fc.record({
    correlationId: fc.constant("c1"),
    createdAt: fc.constant(0),
    prompt: fc.constant("Which?"),
    allowDecline: fc.boolean(),
    presentation: fc.oneof(
      fc.constant({ kind: "radio", options }),
      fc.constant({ kind: "checkbox", options }),
      fc.constant({ kind: "text" }),
      fc.constant({ kind: "slider", min: 0, max: 10, step: 1 }),
      fc.constant({ kind: "date", min: "2026-01-01" }),
    ),
  }, { requiredKeys: ["correlationId", "createdAt", "prompt"] }),
  fc.constant({
    correlationId: "c1",
    createdAt: 0,
    prompt: "Deploy?",
    approval: { title: "Deploy", body: ["now"] },
  }),
);
const response = fc.record({
  action: fc.constantFrom("submit", "decline", "cancel"),
  correlationId: fc.constant("c1"),
  value: fc.oneof(
    fc.record({ optionId: fc.constantFrom("a", "z") }),
    fc.record({ optionIds: fc.constant(["a"]) }),
    fc.record({ text: fc.constantFrom("x", " ") }),
    fc.record({ value: fc.integer({ min: -1, max: 11 }) }),
    fc.record({ date: fc.constantFrom("2026-02-03", "2025-13-01") }),
  ),
}, { requiredKeys: ["action", "correlationId"] });
const elicitResult = fc.record({
  action: fc.constantFrom("accept", "decline", "cancel"),
  content: fc.record({ optionId: fc.constantFrom("a", "z") }),
}, { requiredKeys: ["action"] });
const validationOptions = fc.record({ allowDeclineDefault: fc.boolean() });

Deno.test("a getter that throws an object with no prototype is a refusal, never a throw", () => {
  // Regression: the catch built its message with `String(e)`, which throws for a
  // null-prototype object; getters on options or on the elicitation result were read
  // outside any guard.
  const c = {
    correlationId: "c1",
    createdAt: 0,
    prompt: "?",
    allowDecline: true,
    presentation: { kind: "radio", options },
  };
  const throwing = withThrowingGetter(
    { action: "submit", correlationId: "c1" },
    "value",
    nullProtoThrowable,
  );
  const r = validateCardResponse(c as never, throwing);
  assert.equal(!r.ok && r.error.code, "invalid-card");
  const badOptions = withThrowingGetter({}, "allowDeclineDefault", nullProtoThrowable);
  assertResult(
    validateCardResponse(c as never, { action: "cancel", correlationId: "c1" }, badOptions),
  );
  for (const result of [withThrowingGetter({}, "action", nullProtoThrowable), revokedProxy()]) {
    const e = elicitationResultToCardResponse(c as never, result);
    assert.equal(!e.ok && e.error.code, "invalid-response");
  }
  assertResult(elicitationResultToCardResponse(c as never, { action: "cancel" }, badOptions));
  assert.equal(decodeCardOptions(revokedProxy()), null);
  assert.throws(
    () => createCardValidator(withThrowingGetter({}, "kinds", nullProtoThrowable) as never),
    (e) => e instanceof TypeError && /createCardValidator/.test(e.message),
  );
});

Deno.test("hostile: validateCardResponse / createCardValidator", () => {
  attack(
    [arg(card), arg(response), arg(validationOptions)],
    (c, r, o) => validateCardResponse(c as never, r, o as never),
    { check: assertResult },
  );
  attack(
    [arg(validationOptions), arg(card), arg(response), arg(fc.constantFrom("radio", "rating"))],
    (o, c, r, k) => {
      const v = createCardValidator(o as never);
      assertResult(v.validate(c as never, r));
      assert.equal(typeof v.hasKind(k as string), "boolean");
    },
    { allowed: (e) => e instanceof TypeError && /createCardValidator/.test(e.message) },
  );
});

Deno.test("hostile: cardToElicitation / elicitationResultToCardResponse", () => {
  attack(
    [arg(card), arg(validationOptions)],
    (c, o) => cardToElicitation(c as never, o as never),
    { check: assertResult },
  );
  attack(
    [arg(card), arg(elicitResult), arg(validationOptions)],
    (c, r, o) => elicitationResultToCardResponse(c as never, r, o as never),
    { check: assertResult },
  );
});

Deno.test("hostile: cardValueSchema / cardResponseJsonSchema", () => {
  attack([arg(card)], (c) => cardValueSchema(c as never), { check: assertResult });
  attack([arg(card)], (c) => cardResponseJsonSchema(c as never), { check: assertResult });
});

Deno.test("hostile: decodeCardOptions / isIsoDate / cardRefusal", () => {
  attack([arg(fc.constantFrom(JSON.stringify(options), "{", "[]"))], (v) => decodeCardOptions(v), {
    check: (r) => assert.ok(r === null || Array.isArray(r)),
  });
  attack([arg(fc.constantFrom("2026-02-28", "2026-02-30"))], (s) => isIsoDate(s), {
    check: (r) => assert.equal(typeof r, "boolean"),
  });
  attack(
    [arg(fc.constant("invalid-value")), arg(fc.constant("value.x")), arg(fc.constant("m"))],
    (c, f, m) => cardRefusal(c as never, f as string, m as string),
  );
});
