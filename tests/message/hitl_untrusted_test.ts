/**
 * `toHitlAnswer` / `toHitlAnswers` read request bodies: they never throw,
 * and their Result forms `readHitlAnswer` / `readHitlAnswers` say why a body
 * was refused, with a bound on the parts they read.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  MAX_HITL_ANSWER_PARTS,
  readHitlAnswer,
  readHitlAnswers,
  toHitlAnswer,
  toHitlAnswers,
} from "../../message.ts";
import { type Hostile, hostile, HOSTILE_RUNS, hostileLike } from "../_helpers/hostile.ts";

const sparse = (n: number) => {
  const a: unknown[] = [];
  a.length = n;
  return a;
};

const MALFORMED: [string, unknown, string][] = [
  ["null", null, "invalid-message"],
  ["undefined", undefined, "invalid-message"],
  ["{}", {}, "invalid-message"],
  ['{ parts: "x" }', { parts: "x" }, "invalid-message"],
  ["{ parts: { length: 1e9 } }", { parts: { length: 1e9 } }, "invalid-message"],
  ["a sparse parts array of 1e9", { parts: sparse(1e9) }, "too-many-parts"],
  ["a number", 5, "invalid-message"],
];

Deno.test("malformed request bodies: toHitlAnswer → undefined, toHitlAnswers → [], Result forms refuse", () => {
  for (const [label, body, code] of MALFORMED) {
    assert.equal(toHitlAnswer(body as never), undefined, label);
    assert.deepEqual(toHitlAnswers(body as never), [], label);
    const one = readHitlAnswer(body);
    assert.ok(!one.ok && one.error.code === code, `${label}: ${JSON.stringify(one)}`);
    const all = readHitlAnswers(body);
    assert.ok(!all.ok && all.error.code === code, `${label}: ${JSON.stringify(all)}`);
  }
  const bad = readHitlAnswer({ parts: [] }, { approvalId: 5 });
  assert.ok(!bad.ok && bad.error.code === "invalid-options");
  assert.equal(toHitlAnswer({ parts: [] }, { approvalId: 5 } as never), undefined);
});

Deno.test("readHitlAnswer: null while open, the answer once answered; MAX_HITL_ANSWER_PARTS parts are read", () => {
  const gate = (state: string) => ({
    type: "tool-gate",
    toolCallId: "g1",
    state,
    input: {},
    output: { ok: true },
    approval: { id: "g1", approved: true },
  });
  assert.deepEqual(readHitlAnswer({ parts: [gate("approval-requested")] }), {
    ok: true,
    value: null,
  });
  assert.deepEqual(readHitlAnswer({ parts: [gate("output-available")] }), {
    ok: true,
    value: { action: "accept", gateId: "g1", payload: { ok: true } },
  });
  const full = [...sparse(MAX_HITL_ANSWER_PARTS - 1), gate("output-available")];
  assert.equal(readHitlAnswers({ parts: full }).ok, true);
  assert.equal(toHitlAnswers({ parts: full }).length, 1);
});

const arg = <T>(shape: fc.Arbitrary<T>): fc.Arbitrary<Hostile> =>
  fc.oneof({ weight: 1, arbitrary: hostile() }, { weight: 3, arbitrary: hostileLike(shape) });

const part = fc.record({
  type: fc.constantFrom("tool-gate", "tool-deploy", "dynamic-tool", "text"),
  state: fc.constantFrom(
    "approval-requested",
    "approval-responded",
    "output-available",
    "output-denied",
  ),
  output: fc.jsonValue({ maxDepth: 1 }),
  approval: fc.record({
    id: fc.constantFrom("a", "b"),
    approved: fc.boolean(),
    reason: fc.string(),
  }),
});

Deno.test("toHitlAnswer(s) and readHitlAnswer(s) never throw on hostile input", () => {
  let answered = 0;
  fc.assert(
    fc.property(
      arg(fc.record({ parts: fc.array(part, { maxLength: 4 }) })),
      arg(fc.record({ approvalId: fc.constantFrom("a", "b") })),
      (m, o) => {
        const where = `${m.label} / ${o.label}`;
        const one = toHitlAnswer(m.build() as never, o.build() as never);
        assert.ok(one === undefined || typeof one.gateId === "string", where);
        if (one !== undefined) answered++;
        assert.ok(Array.isArray(toHitlAnswers(m.build() as never)), where);
        const r1 = readHitlAnswer(m.build(), o.build());
        assert.equal(typeof r1.ok, "boolean", where);
        if (!r1.ok) assert.equal(typeof r1.error.code, "string", where);
        const r2 = readHitlAnswers(m.build());
        assert.ok(r2.ok ? Array.isArray(r2.value) : typeof r2.error.code === "string", where);
      },
    ),
    { numRuns: HOSTILE_RUNS },
  );
  assert.ok(answered > 0, "the property reached real answers");
});
