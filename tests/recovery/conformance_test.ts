import assert from "node:assert/strict";
import {
  ConformanceFailure,
  type ConformanceHost,
  memoryConformanceHost,
  type MemoryStoreOptions,
  recoveryConformanceCases,
} from "../../src/recovery/mod.ts";
import { BROKEN_VARIANTS, makeStore, type Variant } from "./_broken_stores.ts";

const tick = () => Promise.resolve();

// The reference host passes the whole kit (run exactly as a host would, via Deno.test).
for (const c of recoveryConformanceCases(() => memoryConformanceHost({ pause: tick }))) {
  Deno.test({ name: c.name, ignore: c.skip !== undefined, fn: () => c.run() });
}

function hostFor(variant: Variant): () => ConformanceHost {
  return () =>
    memoryConformanceHost({
      pause: tick,
      makeStore: (o) => makeStore(variant, o as MemoryStoreOptions),
    });
}

async function failures(variant: Variant): Promise<string[]> {
  const failed: string[] = [];
  for (const c of recoveryConformanceCases(hostFor(variant), { prefix: "" })) {
    try {
      await c.run();
    } catch (e) {
      failed.push(`${c.name} (${e instanceof ConformanceFailure ? "contract" : "crash"})`);
    }
  }
  return failed;
}

Deno.test("conformance kit: the reference host passes every case with no pauses too", async () => {
  assert.deepEqual(await failures("reference"), []);
  for (const c of recoveryConformanceCases(() => memoryConformanceHost())) await c.run();
});

Deno.test("conformance kit: every deliberately broken store fails at least one case", async () => {
  const caught: Record<string, string[]> = {};
  for (const v of BROKEN_VARIANTS) caught[v] = await failures(v);
  for (const v of BROKEN_VARIANTS) assert.ok(caught[v].length > 0, `${v} passed the kit`);
  assert.ok(caught["no-authority-recheck"].some((n) => n.includes("authority")));
  assert.ok(caught["abort-before-cancel-commit"].some((n) => n.includes("abort hook")));
  assert.ok(caught["blind-relaunch"].some((n) => n.includes("lost admission")));
  assert.ok(caught["launch-before-mark"].some((n) => n.includes("concurrent admissions")));
  assert.ok(caught["non-atomic-cas"].some((n) => n.includes("exclusive under concurrency")));
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
