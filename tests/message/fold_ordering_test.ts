/**
 * `foldUIMessage` over v1 envelopes reports the v1 ordering verdicts under
 * their own codes (`gap`, `duplicate`, `reordered`, `foreign-*`) with the
 * envelope's position, the same verdicts `foldChatState` gives.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { foldUIMessage } from "../../ai_sdk.ts";
import { foldChatState } from "../../mod.ts";
import { envelope } from "./_envelopes.ts";
import { validTurn } from "./_valid_turns.ts";

const delta = (seq: number, extra: Record<string, unknown> = {}) => ({
  ...envelope(seq, { type: "delta", text: `${seq} ` }),
  ...extra,
});

Deno.test("seq 1, 5, 6: one `gap` issue at seq 5 with eventId and expectedSeq (was invalid-chunk, message only)", () => {
  const { issues } = foldUIMessage([delta(1), delta(5), delta(6)]);
  assert.deepEqual(issues.map(({ message: _m, ...rest }) => rest), [
    { index: 1, code: "gap", seq: 5, eventId: "e5", eventType: "delta", expectedSeq: 2 },
  ]);
});

Deno.test("reordered, duplicate and foreign envelopes are typed issues with their positions", () => {
  const { issues } = foldUIMessage([
    delta(1),
    delta(3),
    delta(2),
    delta(2),
    delta(4, { turnId: "other", eventId: "x4" }),
    delta(4, { conversationId: "elsewhere", eventId: "y4" }),
  ]);
  assert.deepEqual(issues.map((i) => [i.index, i.code, i.seq, i.eventId]), [
    [2, "reordered", 2, "e2"],
    [3, "duplicate", 2, "e2"],
    [4, "foreign-turn", 4, "x4"],
    [5, "foreign-conversation", 4, "y4"],
  ]);
  const foreign = issues.find((i) => i.code === "foreign-turn")!;
  assert.deepEqual([foreign.expected, foreign.received], ["t", "other"]);
});

Deno.test("property: foldUIMessage's ordering issues are foldChatState's verdicts (code, index, seq)", () => {
  const ORDER = new Set(["gap", "duplicate", "reordered", "foreign-conversation", "foreign-turn"]);
  fc.assert(
    fc.property(validTurn, fc.array(fc.nat(), { maxLength: 5 }), ({ envelopes }, noise) => {
      const input: unknown[] = [...envelopes];
      for (const n of noise) {
        const i = n % input.length;
        if (n % 3 === 0 && input.length > 1) input.splice(i, 1); // lose one
        else if (n % 3 === 1) input.splice(i, 0, input[i]); // re-send one
        else if (input.length > 1) { // swap neighbours
          const j = i % (input.length - 1);
          [input[j], input[j + 1]] = [input[j + 1], input[j]];
        }
      }
      const ours = foldUIMessage(input).issues.filter((i) => ORDER.has(i.code))
        .map((i) => [i.index, i.code, i.seq]);
      const v1 = foldChatState(input).refusals.filter((r) => ORDER.has(r.error.code))
        .map((r) => [r.index, r.error.code, r.error.seq]);
      assert.deepEqual(ours, v1);
    }),
    { numRuns: 1000 },
  );
});
