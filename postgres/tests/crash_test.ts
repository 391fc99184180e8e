/**
 * The multi-process crash test on the real server (see
 * `tests/_crash/run.ts`): 4 worker processes racing on the same turns,
 * effects and cards, 200 SIGKILLs at kill points (inside the launch
 * callback, between COMMIT and acknowledgement, inside `transact`, inside
 * a dispatch) and at random times, fresh processes resuming, a sweep, then
 * every invariant checked. `deno task soak:postgres` runs 10,000 rounds.
 *
 * @module
 */
import assert from "node:assert/strict";
import { databaseUrl } from "./_helpers/db.ts";
import { failures, runCrash } from "./_crash/run.ts";
import { seedFor } from "../../tests/_helpers/seed.ts";

Deno.test({
  name:
    "crash [server, 4 processes]: 200 SIGKILL rounds: no double launch, no lost completion, no launch after a committed cancel or revocation, every uncertainty typed, no answer accepted twice",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const report = await runCrash({
      url: await databaseUrl(),
      rounds: 200,
      workers: 4,
      seed: crashSeed(),
      log: (l) => console.log(l),
    });
    console.log(JSON.stringify({ ...report, schema: undefined }, null, 1));
    assert.deepEqual(failures(report), []);
    assert.ok(report.rounds >= 200);
    // The run must have exercised what it claims to.
    for (
      const point of ["launch", "admit-ack", "dispatch", "complete-ack", "transact", "transact-ack"]
    ) {
      assert.ok((report.killsByPoint[point] ?? 0) > 0, `no kill at ${point}`);
    }
    assert.ok(report.counts.notRunRecorded > 0, "no verified not-run was recorded");
    assert.ok(report.counts.reconciled > 0, "no outcome was reconciled from the ledger");
    assert.ok(report.counts.uncertainInjected > 0, "no uncertain acknowledgement was injected");
    assert.ok(report.counts.cardsAnswered > 0 && report.counts.turnsCancelled > 0);
  },
});

/** `CRASH_SEED` when set (the soak script's name for it), else {@link seedFor}'s (`FC_SEED` or random), printed. */
function crashSeed(): number {
  const fixed = Deno.env.get("CRASH_SEED");
  return seedFor("crash rounds", fixed === undefined ? undefined : Number(fixed));
}
