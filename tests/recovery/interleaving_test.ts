import assert from "node:assert/strict";
import fc from "fast-check";
import { BROKEN_VARIANTS } from "./_broken_stores.ts";
import { interleavingProperty } from "./_interleaving.ts";

const RUNS = 10_000;

Deno.test(`interleaving: reference store keeps every invariant over ${RUNS} seeded schedules`, async () => {
  await fc.assert(interleavingProperty("reference"), { numRuns: RUNS, seed: 20261130 });
});

for (const variant of BROKEN_VARIANTS) {
  Deno.test(`interleaving: the suite catches the broken store '${variant}'`, async () => {
    const r = await fc.check(interleavingProperty(variant), { numRuns: 3000, seed: 20261130 });
    assert.equal(r.failed, true, `${variant} was not caught in ${r.numRuns} runs`);
  });
}
