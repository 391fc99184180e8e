import assert from "node:assert/strict";
import type { MemoryStoreOptions } from "../../recovery.ts";
import {
  ConformanceFailure,
  type ConformanceHost,
  memoryConformanceHost,
  recoveryConformanceCases,
} from "../../src/recovery/testing.ts";
import { BROKEN_VARIANTS, makeStore, type Variant } from "./_broken_stores.ts";

const tick = () => Promise.resolve();

// The reference host passes the whole kit (run exactly as a host would, via Deno.test).
for (const c of recoveryConformanceCases(() => memoryConformanceHost({ pause: tick }))) {
  Deno.test({ name: c.name, ignore: c.skip !== undefined, fn: () => c.run() });
}

// A macrotask per store round trip, like real I/O: a check made outside the
// fence then stays stale long enough for the kit's races to see it.
const roundTrip = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function hostFor(variant: Variant): () => ConformanceHost {
  return () =>
    memoryConformanceHost({
      pause: variant === "reference" ? tick : roundTrip,
      makeStore: (o) => makeStore(variant, o as MemoryStoreOptions),
    });
}

async function failures(variant: Variant): Promise<string[]> {
  const failed: string[] = [];
  for (const c of recoveryConformanceCases(hostFor(variant), { prefix: "" })) {
    try {
      await c.run();
    } catch (e) {
      const kind = e instanceof ConformanceFailure ? "contract" : "crash";
      failed.push(`${c.name} (${kind}: ${e instanceof Error ? e.message : String(e)})`);
    }
  }
  return failed;
}

Deno.test("conformance kit: the reference host passes every case with no pauses and with I/O-like pauses too", async () => {
  assert.deepEqual(await failures("reference"), []);
  for (const c of recoveryConformanceCases(() => memoryConformanceHost())) await c.run();
  const io = () => memoryConformanceHost({ pause: roundTrip });
  for (const c of recoveryConformanceCases(io, { concurrency: 16 })) await c.run();
});

Deno.test("conformance kit: every deliberately broken store fails at least one case", async () => {
  const caught: Record<string, string[]> = {};
  for (const v of BROKEN_VARIANTS) caught[v] = await failures(v);
  for (const v of BROKEN_VARIANTS) assert.ok(caught[v].length > 0, `${v} passed the kit`);
  // Each is caught by the contract it breaks (a case name AND its violation), not by a crash.
  const expected: Record<(typeof BROKEN_VARIANTS)[number], [string, RegExp]> = {
    "no-authority-recheck": ["rechecks current authority", /must refuse unauthorized/],
    "abort-before-cancel-commit": ["before the abort hook", /observe the committed cancel/],
    "blind-relaunch": ["lost admission", /launches exactly once, got 2/],
    "launch-before-mark": ["concurrent admissions", /expected 1 launch, got [2-9]/],
    "non-atomic-cas": ["exclusive under concurrency", /expected 1 winner, got [2-9]/],
    "status-outside-fence": ["share one fence", /after the cancellation was acknowledged/],
  };
  for (const v of BROKEN_VARIANTS) {
    const [name, reason] = expected[v];
    assert.ok(
      caught[v].some((f) => f.includes(name) && f.includes("(contract:") && reason.test(f)),
      `${v}: expected '${name}' to fail with ${reason}, got ${JSON.stringify(caught[v])}`,
    );
  }
});

Deno.test("conformance kit: optional capabilities are skipped when the host declares it lacks them", () => {
  const all = recoveryConformanceCases(() => memoryConformanceHost());
  const lean = recoveryConformanceCases(() => memoryConformanceHost(), {
    lacks: ["revocation", "lost-acks", "replay", "replay-trim"],
  });
  assert.equal(all.filter((c) => c.skip).length, 0);
  assert.deepEqual(
    lean.filter((c) => c.skip).map((c) => c.skip),
    [
      "host declares it lacks revocation",
      "host declares it lacks lost-acks",
      "host declares it lacks lost-acks",
      "host declares it lacks replay",
      "host declares it lacks replay-trim",
    ],
  );
  assert.equal(all.length, lean.length);
});

Deno.test("conformance kit: a host that omits a hook it did not declare missing fails loudly", async () => {
  const [c] = recoveryConformanceCases(() => ({ ...memoryConformanceHost(), revoke: undefined }), {
    prefix: "",
  }).filter((x) => x.name.includes("authority"));
  await assert.rejects(() => c.run(), ConformanceFailure);
});

Deno.test("conformance kit: a non-finite concurrency option falls back to the default", async () => {
  for (const concurrency of [Number.NaN, Infinity, "4" as unknown as number]) {
    const cases = recoveryConformanceCases(() => memoryConformanceHost({ pause: tick }), {
      concurrency,
    });
    for (const c of cases.filter((x) => x.name.includes("concurrency"))) await c.run();
  }
});
