/**
 * "Never throws" against a card whose `correlationId` answers differently
 * on a later read: `ChatStateFolder.push` / `resync` (and `V1ToAgUi.push`,
 * `V1ToUIMessageChunks.push`, which fold through it) take the id the parser
 * validated and never read the field again. Hostile later answers come from
 * the shared generator (tests/_helpers/hostile.ts). The property prints its
 * seed; set FC_SEED to replay one.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { ChatStateFolder, foldChatState } from "../../mod.ts";
import { V1ToAgUi } from "../../ag_ui.ts";
import { V1ToUIMessageChunks } from "../../ai_sdk.ts";
import { hostile, HOSTILE_RUNS } from "../_helpers/hostile.ts";

/** A card whose `correlationId` is `id` for the first `good` reads, then `later()` (or throws). */
function fickleCard(good: number, later: () => unknown): Record<string, unknown> {
  let reads = 0;
  return Object.defineProperty({ prompt: "Pick one", createdAt: 1 }, "correlationId", {
    enumerable: true,
    get() {
      return reads++ < good ? "k1" : later();
    },
  });
}

const cardEnvelope = (card: unknown) => ({
  schemaVersion: 1,
  conversationId: "c1",
  turnId: "t1",
  eventId: "t1:1",
  seq: 1,
  event: { type: "card", card },
});

function seedOf(): number {
  const s = Number(Deno.env.get("FC_SEED") ?? NaN);
  const seed = Number.isSafeInteger(s) ? s : Math.floor(Math.random() * 2 ** 31);
  console.log("seed", seed);
  return seed;
}

Deno.test("ChatStateFolder.push / resync: a correlationId that throws on its second read", () => {
  const boom = () => {
    throw new Error("second read");
  };
  for (const method of ["push", "resync"] as const) {
    const f = new ChatStateFolder("c1", "t1");
    const r = f[method](cardEnvelope(fickleCard(1, boom)));
    assert.equal(r.ok, true, method);
    assert.equal(f.state().openCards.length, 1);
    // the card is opened under the id the parser validated: card_closed finds it
    const closed = f.push({
      ...cardEnvelope(null),
      eventId: "t1:2",
      seq: 2,
      event: { type: "card_closed", correlationId: "k1" },
    });
    assert.equal(closed.ok, true, method);
    assert.deepEqual(f.state().closedCards, [{ correlationId: "k1" }]);
  }
});

Deno.test("property: a card whose correlationId turns hostile after k reads never makes the folds throw", () => {
  fc.assert(
    fc.property(fc.nat({ max: 4 }), hostile(), fc.boolean(), (good, later, throws) => {
      const make = () =>
        fickleCard(good, () => {
          if (throws) throw later.build();
          return later.build();
        });
      const f = new ChatStateFolder("c1", "t1");
      const pushed = f.push(cardEnvelope(make()));
      assert.equal(typeof pushed.ok, "boolean");
      const s = f.state();
      assert.ok(Array.isArray(s.openCards));
      assert.equal(
        typeof new ChatStateFolder("c1", "t1").resync(cardEnvelope(make())).ok,
        "boolean",
      );
      assert.equal(typeof new V1ToAgUi({ runId: "r1" }).push(cardEnvelope(make())).ok, "boolean");
      assert.equal(typeof new V1ToUIMessageChunks().push(cardEnvelope(make())).ok, "boolean");
      assert.ok(Array.isArray(foldChatState([cardEnvelope(make())]).refusals));
    }),
    { numRuns: HOSTILE_RUNS, seed: seedOf() },
  );
});
