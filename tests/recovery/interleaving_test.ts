import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { INTERLEAVING_VARIANTS } from "./_broken_stores.ts";
import { emptyStats, interleavingProperty } from "./_interleaving.ts";

const RUNS = 10_000;

Deno.test(`interleaving: reference store keeps every invariant over ${RUNS} seeded schedules`, async () => {
  const stats = emptyStats();
  await fc.assert(interleavingProperty("reference", stats), { numRuns: RUNS, seed: 20261130 });
  // The runs must reach the hard paths, or passing proves little.
  for (const [k, v] of Object.entries(stats)) assert.ok(v >= 50, `only ${v} occurrences of ${k}`);
});

// The invariant each broken store must trip (the stated reason, not an accident).
const REASON: Record<(typeof INTERLEAVING_VARIANTS)[number], RegExp> = {
  "non-atomic-cas": /: [2-9] launches|admitted [2-9] times/,
  "launch-before-mark": /admitted=0 but launched=1|[2-9] launches/,
  "no-authority-recheck": /launched after authority was revoked/,
  "abort-before-cancel-commit": /abort hook ran before the cancel committed/,
  "blind-relaunch": /: 2 launches/,
  "status-outside-fence": /launched after (the cancel committed|authority was revoked)/,
};

for (const variant of INTERLEAVING_VARIANTS) {
  Deno.test(`interleaving: the suite catches the broken store '${variant}'`, async () => {
    const r = await fc.check(interleavingProperty(variant), { numRuns: 3000, seed: 20261130 });
    assert.equal(r.failed, true, `${variant} was not caught in ${r.numRuns} runs`);
    const message = r.errorInstance instanceof Error ? r.errorInstance.message : "";
    assert.match(message, /^invariants violated: /);
    assert.match(message, REASON[variant]);
  });
}
