import assert from "node:assert/strict";
import {
  type InteractionConformanceCase,
  interactionStoreConformance,
} from "../../src/interactions/testing.ts";
import { type Flaw, flawedHarness, memoryHarness } from "./_stores.ts";

const kit = interactionStoreConformance(memoryHarness, { lostAcks: true, clockRewind: true });

Deno.test("conformance kit: has cases covering store and resolver contracts", () => {
  assert.ok(kit.length >= 15, `only ${kit.length} cases`);
  assert.equal(new Set(kit.map((c) => c.name)).size, kit.length, "case names are unique");
  assert.ok(kit.some((c) => c.name.startsWith("store:")));
  assert.ok(kit.some((c) => c.name.startsWith("resolver:")));
});

Deno.test("conformance kit: the lost-ack and clock-rewind cases are skipped unless declared", () => {
  const plain = interactionStoreConformance(memoryHarness);
  const skipped = plain.filter((c) => c.skip !== undefined);
  assert.equal(skipped.length, 2);
  assert.match(skipped[0].name, /clock step back/);
  assert.match(skipped[1].name, /lost acknowledgement/);
  assert.equal(kit.filter((c) => c.skip !== undefined).length, 0);
});

for (const c of kit) {
  Deno.test(`conformance (memory store) ${c.name}`, () => c.run());
}

async function failures(cases: InteractionConformanceCase[]): Promise<Map<string, string>> {
  const failed = new Map<string, string>();
  for (const c of cases) {
    if (c.skip !== undefined) continue;
    try {
      await c.run();
    } catch (e) {
      failed.set(c.name, (e as Error).message);
    }
  }
  return failed;
}

const expectedCatches: Record<Flaw, string[]> = {
  "unfenced-read-then-write": [
    "store: concurrent transacts on one revision commit exactly once",
    "resolver: two workers answer, one wins, the other gets duplicate with the stored submission",
  ],
  "no-authority-recheck": [
    "store: fence rechecks revoked authority inside the transaction",
    "resolver: authority revoked while validating → unauthorized, nothing stored",
  ],
  "accepts-after-expiry": [
    "store: fence refuses at and after expiry by the store clock",
  ],
  "follows-clock-back": [
    "store: a clock step back never re-opens an expired record",
  ],
};

for (const flaw of Object.keys(expectedCatches) as Flaw[]) {
  Deno.test(`conformance kit catches a broken store: ${flaw}`, async () => {
    const failed = await failures(
      interactionStoreConformance(() => flawedHarness(flaw), {
        clockRewind: flaw === "follows-clock-back",
      }),
    );
    for (const name of expectedCatches[flaw]) {
      assert.ok(failed.has(name), `${flaw} was not caught by "${name}"`);
    }
    // Nothing else fails: the kit pinpoints the flaw rather than failing wholesale.
    assert.deepEqual([...failed.keys()].sort(), [...expectedCatches[flaw]].sort());
  });
}

Deno.test("conformance kit: a failing case rejects with InteractionConformanceError", async () => {
  const c = interactionStoreConformance(() => flawedHarness("no-authority-recheck"))
    .find((x) => x.name.startsWith("store: fence rechecks revoked"));
  assert.ok(c);
  await assert.rejects(() => c.run(), { name: "InteractionConformanceError" });
});
