/**
 * fc.scheduler explores interleavings of concurrent workers answering one
 * card against the reference store (every store round trip is a scheduling
 * point), with optional lost acknowledgements.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { FakeClock, InteractionResolver, MemoryInteractionStore } from "../../interactions.ts";
import { ME, SCHEMA_1, schemas } from "./_fixtures.ts";

let fencedRaces = 0;

Deno.test("interleavings: N workers, one winner, losers get duplicate or needs-reconciliation", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.scheduler(),
      fc.integer({ min: 2, max: 5 }),
      fc.nat({ max: 2 }),
      async (s, n, lostAcks) => {
        const clock = new FakeClock();
        let scheduled = false;
        // Every store round trip becomes a scheduling point once the card is open.
        const store = new MemoryInteractionStore({
          now: () => clock.now(),
          pause: () => (scheduled ? s.schedule(Promise.resolve()) : Promise.resolve()),
        });
        const o = await new InteractionResolver({ store, schemas }).open({
          id: "c",
          card: { prompt: "?" },
          authority: ME,
          schema: SCHEMA_1,
        });
        assert.ok(o.ok);
        scheduled = true;
        store.loseNextAck(lostAcks);
        const all = Array.from(
          { length: n },
          (_, k) =>
            new InteractionResolver({ store, schemas }).answer({
              id: "c",
              caller: ME,
              response: {
                action: "submit",
                correlationId: "c",
                value: { optionId: k % 2 ? "a" : "b" },
              },
              submissionId: `w${k}`,
            }),
        );
        await s.waitFor(Promise.all(all));
        const outs = await Promise.all(all);
        const stored = store.peek("c");
        assert.ok(stored?.status === "submitted");
        const winnerId = stored.submission?.submissionId;
        assert.equal(store.transitions("c").length, 1, "exactly one transition");
        assert.equal(store.stats.writes, 1, "exactly one write");
        for (const [k, out] of outs.entries()) {
          if (out.ok) {
            assert.equal(`w${k}`, winnerId, "only the stored submission is reported as won");
          } else if (out.error.code === "duplicate") {
            assert.equal(out.error.submission.submissionId, winnerId);
          } else {
            assert.equal(out.error.code, "needs-reconciliation");
            assert.notEqual(`w${k}`, winnerId, "a winner whose ack was lost is recovered");
          }
        }
        // Lost acks turn into extra reads, never extra transacts.
        assert.ok(store.stats.transacts <= n);
        // Several workers passed the pre-read and met in the fence.
        if (store.stats.transacts > 1) fencedRaces++;
      },
    ),
    { numRuns: 300 },
  );
  assert.ok(fencedRaces > 50, `only ${fencedRaces} runs raced into the fence`);
});
