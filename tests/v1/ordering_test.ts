/**
 * The whole-stream ordering policy of `foldChatState` / `foldChatStateStrict`
 * (src/v1/_ordering.ts): a bounded reorder window, `reordered` when a late
 * envelope fills a hole, one `gap` when a hole is never filled.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { ChatStateFolder, foldChatState, foldChatStateStrict } from "../../mod.ts";
import { REORDER_WINDOW } from "../../src/v1/_ordering.ts";
import { revokedProxy, withThrowingGetter } from "../_helpers/hostile.ts";

const C = "c1", T = "t1";
function delta(seq: number, extra: Record<string, unknown> = {}) {
  return {
    schemaVersion: 1,
    conversationId: C,
    turnId: T,
    eventId: `e${seq}`,
    seq,
    event: { type: "delta", text: `${seq} ` },
    ...extra,
  };
}
const verdicts = (envs: unknown[]) =>
  foldChatState(envs).refusals.map((r) => [r.index, r.error.code, r.error.seq]);
const text = (seqs: number[]) => seqs.map((s) => `${s} `).join("");

Deno.test("1, 3, 2: reported `reordered` (at seq 2), never `gap`; applied in seq order", () => {
  const envs = [delta(1), delta(3), delta(2)];
  const r = foldChatState(envs);
  assert.deepEqual(verdicts(envs), [[2, "reordered", 2]]);
  assert.match(r.refusals[0].error.message, /seq 2 arrived after seq 3/);
  assert.equal(r.state!.text, text([1, 2, 3]));
  assert.equal(r.applied, 3);
  const strict = foldChatStateStrict(envs);
  assert.deepEqual(!strict.ok && [strict.error.code, strict.error.index], ["reordered", 2]);
});

Deno.test("1, 5, 6: one `gap` (at seq 5), then the fold goes on", () => {
  const envs = [delta(1), delta(5), delta(6)];
  assert.deepEqual(verdicts(envs), [[1, "gap", 5]]);
  const r = foldChatState(envs);
  assert.equal(r.refusals[0].error.expectedSeq, 2);
  assert.match(r.refusals[0].error.message, /skips seq 2–4/);
  assert.equal(r.state!.text, text([1, 5, 6]));
  assert.equal(r.state!.lastSeq, 6);
  const strict = foldChatStateStrict(envs);
  assert.deepEqual(!strict.ok && [strict.error.code, strict.error.index], ["gap", 1]);
});

Deno.test("a lost seq and a swap: 1, 4, 3 → gap at seq 3 and it arrived after 4", () => {
  const envs = [delta(1), delta(4), delta(3)];
  assert.deepEqual(verdicts(envs), [[2, "gap", 3], [2, "reordered", 3]]);
  assert.equal(foldChatState(envs).state!.text, text([1, 3, 4]));
});

Deno.test("a hole filled after many envelopes within the window: one `reordered`", () => {
  const later = Array.from({ length: REORDER_WINDOW }, (_, i) => delta(i + 3));
  const envs = [delta(1), ...later, delta(2)];
  assert.deepEqual(verdicts(envs), [[envs.length - 1, "reordered", 2]]);
  assert.equal(
    foldChatState(envs).state!.text,
    text(Array.from({ length: REORDER_WINDOW + 2 }, (_, i) => i + 1)),
  );
});

Deno.test("the window is bounded: one envelope more and the hole is a `gap`; the late one is refused", () => {
  const later = Array.from({ length: REORDER_WINDOW + 1 }, (_, i) => delta(i + 3));
  const envs = [delta(1), ...later, delta(2)];
  const r = foldChatState(envs);
  assert.deepEqual(verdicts(envs), [[1, "gap", 3], [envs.length - 1, "reordered", 2]]);
  assert.equal(r.refusals[1].error.expectedSeq, REORDER_WINDOW + 4); // refused: too late
  assert.equal(r.applied, REORDER_WINDOW + 2);
});

Deno.test("duplicates and foreign envelopes while envelopes are held", () => {
  const envs = [
    delta(1),
    delta(3),
    delta(3), // a re-send of a held one
    delta(2, { turnId: "other" }),
    delta(2, { conversationId: "other" }),
    delta(2),
    delta(1), // a re-send of an applied one
    delta(2, { eventId: "x" }), // a different event claiming an applied seq
  ];
  assert.deepEqual(verdicts(envs), [
    [2, "duplicate", 3],
    [3, "foreign-turn", 2],
    [4, "foreign-conversation", 2],
    [5, "reordered", 2],
    [6, "duplicate", 1],
    [7, "reordered", 2],
  ]);
  assert.equal(foldChatState(envs).state!.text, text([1, 2, 3]));
});

Deno.test("an envelope refused by the fold leaves its seq open for another", () => {
  const unknownCall = {
    ...delta(2, { eventId: "x2" }),
    event: { type: "tool_result", callId: "nope", name: "n", ok: true },
  };
  const envs = [delta(1), delta(3), unknownCall, delta(2)];
  assert.deepEqual(verdicts(envs), [[2, "unknown-call", 2], [3, "reordered", 2]]);
  assert.equal(foldChatState(envs).state!.text, text([1, 2, 3]));
  // the first envelope need not be seq 1 when seq 1 follows within the window
  assert.deepEqual(verdicts([delta(2), delta(1)]), [[1, "reordered", 1]]);
});

Deno.test("strict: the first verdict by index, even when decided later", () => {
  const envs = [delta(1), delta(5), { bad: true }, delta(6)];
  const strict = foldChatStateStrict(envs);
  assert.deepEqual(!strict.ok && [strict.error.code, strict.error.index], ["gap", 1]);
  assert.deepEqual(verdicts(envs).map((v) => v.slice(0, 2)), [[1, "gap"], [
    2,
    "unsupported-version",
  ]]);
});

Deno.test("incremental push never holds: a gap is refused at once, resync applies it", () => {
  const f = new ChatStateFolder(C, T);
  assert.ok(f.push(delta(1)).ok);
  const g = f.push(delta(3));
  assert.deepEqual(!g.ok && [g.error.code, g.error.expectedSeq], ["gap", 2]);
  assert.ok(f.push(delta(2)).ok);
  assert.ok(f.resync(delta(5)).ok);
  assert.equal(f.state().text, text([1, 2, 5]));
});

Deno.test("property: the whole-stream fold equals the in-order fold of what it applied", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 30 }),
      (seqs) => {
        const envs = seqs.map((s) => delta(s));
        const r = foldChatState(envs);
        // every envelope index has verdicts only about itself, sorted
        const idx = r.refusals.map((x) => x.index);
        assert.deepEqual(idx, [...idx].sort((a, b) => a - b));
        // the text is the applied seqs in increasing order, each once
        const s = r.state?.text ?? "";
        const applied = s.split(" ").filter(Boolean).map(Number);
        assert.deepEqual(applied, [...new Set(applied)].sort((a, b) => a - b));
        assert.equal(applied.length, r.applied);
        // nothing distinct is lost silently: every distinct seq is applied or has a verdict
        for (const seq of new Set(seqs)) {
          assert.ok(
            applied.includes(seq) || r.refusals.some((x) => x.error.seq === seq),
            `seq ${seq} neither applied nor reported`,
          );
        }
        // a gap is reported once per hole: never two gaps for the same missing seq
        const gaps = r.refusals.filter((x) => x.error.code === "gap").map((x) =>
          x.error.expectedSeq
        );
        assert.equal(new Set(gaps).size, gaps.length);
      },
    ),
    { numRuns: 2_000 },
  );
});

Deno.test("foldChatState / foldChatStateStrict: hostile options and iterators are refusals, never throws", () => {
  // Regression: options were read with `options?.from` etc. unguarded, and a throwing
  // iterator propagated out of a function documented to collect every problem.
  const envs = [delta(1)];
  for (
    const options of [
      withThrowingGetter({}, "from", () => Object.create(null)),
      withThrowingGetter({}, "turnId", () => new Error("x")),
      revokedProxy(),
      { conversationId: 5, turnId: T },
      { conversationId: C, turnId: "" },
    ]
  ) {
    const r = foldChatState(envs, options as never);
    assert.deepEqual(r.refusals.map((x) => [x.index, x.error.code]), [[-1, "invalid-options"]]);
    assert.equal(r.state, null);
    const s = foldChatStateStrict(envs, options as never);
    assert.deepEqual(!s.ok && [s.error.code, s.error.index], ["invalid-options", -1]);
  }
  function* throwing() {
    yield delta(1);
    yield delta(2);
    throw Object.create(null);
  }
  const r = foldChatState(throwing());
  assert.deepEqual(r.refusals.map((x) => [x.index, x.error.code]), [[2, "invalid-envelope"]]);
  assert.equal(r.state!.text, text([1, 2]));
  const s = foldChatStateStrict(throwing());
  assert.deepEqual(!s.ok && [s.error.code, s.error.index], ["invalid-envelope", 2]);
});
