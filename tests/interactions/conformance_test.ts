import assert from "node:assert/strict";
import { seededRandom } from "../../src/_internal/kit_support.ts";
import {
  InteractionConformanceError,
  interactionStoreConformance,
  type InteractionStoreHarness,
  memoryInteractionHarness,
} from "../../src/interactions/testing.ts";
import { type Flaw, flawedHarness, FLAWS, memoryHarness } from "./_stores.ts";
import { catches, failingCases } from "../recovery/_kit_catch.ts";

/** Runs per planted bug, each with its own seed (schedule of simulated round trips). */
const RUNS = 30;

const kit = interactionStoreConformance(() => memoryHarness(), { holdMs: 25 });

Deno.test("conformance kit: has cases covering store and resolver contracts", () => {
  assert.ok(kit.length >= 25, `only ${kit.length} cases`);
  assert.equal(new Set(kit.map((c) => c.name)).size, kit.length, "case names are unique");
  assert.ok(kit.some((c) => c.name.startsWith("store:")));
  assert.ok(kit.some((c) => c.name.startsWith("resolver:")));
  assert.equal(kit.filter((c) => c.skip !== undefined).length, 0, "nothing skipped by default");
});

for (const c of kit) {
  Deno.test(`conformance (memory store) ${c.name}`, () => c.run());
}

/** The case that must name each planted bug, and what its failure must say. */
const EXPECTED: Record<Flaw, [string, RegExp]> = {
  "unfenced-read-then-write": [
    "held transaction blocks another instance",
    /ran its callback \(or committed\) while the first held/,
  ],
  "no-authority-recheck": [
    "rechecks revoked authority inside the transaction",
    /after revocation → unauthorized/,
  ],
  "accepts-after-expiry": ["refuses at and after expiry", /after expiry → expired/],
  "follows-clock-back": [
    "clock step back never re-opens",
    /after the clock stepped back → expired/,
  ],
  "per-instance-lock": ["held transaction blocks another instance", /not per adapter instance/],
  "ack-not-persisted": ["create inserts once", /another instance\) must refuse|not read back/],
  "authority-before-fence": [
    "blocks revocation of the authority it read",
    /revocation .* was acknowledged while/,
  ],
  "revocation-between-check-and-write": [
    "blocks revocation of the authority it read",
    /revocation .* was acknowledged while/,
  ],
  "two-step-transition": ["crash between them", /without its pair/],
  "conflict-without-current": [
    "refuses resolved, cancelled and expired records",
    /carrying the current record/,
  ],
  "system-grant-any-tenant": ["a system grant is per tenant", /granted only in another tenant/],
  "system-grant-cached": ["revoked system grant is refused", /whose grant was revoked/],
  "system-grant-unlocked": [
    "blocks revocation of the system grant it read",
    /revocation of the system grant .* was acknowledged while/,
  ],
  "no-next-validation": ["next record that breaks the rules", /was written: validate next/],
};

function seeded(seed: number): () => Promise<void> {
  const random = seededRandom(seed);
  return () => new Promise<void>((r) => setTimeout(r, random() * 2));
}

const isFailure = (e: unknown) => e instanceof InteractionConformanceError;

for (const flaw of FLAWS) {
  const [name, reason] = EXPECTED[flaw];
  Deno.test(`conformance kit names the planted bug '${flaw}' on ${RUNS} of ${RUNS} seeded runs`, async () => {
    const { caught, misses } = await catches(
      RUNS,
      (seed) =>
        interactionStoreConformance(() => flawedHarness(flaw, seeded(seed)), { holdMs: 50, seed })
          .find((x) => x.name.includes(name)),
      isFailure,
      reason,
    );
    assert.equal(caught, RUNS, `${flaw}: caught ${caught}/${RUNS}: ${misses.join("; ")}`);
  });
}

Deno.test("conformance kit: a full run against each planted bug is a verdict (named failures, no crash, nothing hangs)", async () => {
  for (const flaw of FLAWS) {
    const cases = interactionStoreConformance(() => flawedHarness(flaw), {
      holdMs: 20,
      timeoutMs: 500,
    });
    const failed = await failingCases(cases, isFailure, flaw);
    assert.ok(
      failed.some((n) => n.includes(EXPECTED[flaw][0])),
      `${flaw}: expected '${EXPECTED[flaw][0]}' among ${JSON.stringify(failed)}`,
    );
  }
});

Deno.test("conformance kit: a correct store behind a flaky driver is judged case by case, never crashes the kit", async () => {
  const random = seededRandom(11);
  const flaky = (): InteractionStoreHarness => {
    const h = memoryInteractionHarness();
    return {
      ...h,
      connect: async () => {
        const { store } = await h.connect();
        const chance = () => random() < 0.1;
        return {
          store: {
            create: (r) => store.create(r),
            read: (id, c) =>
              chance() ? Promise.reject(new Error("connection reset")) : store.read(id, c),
            transact: async (q, f) => {
              if (chance()) throw new Error("could not serialize access");
              const out = await store.transact(q, f);
              if (chance()) throw new Error("connection lost after COMMIT");
              return out;
            },
          },
        };
      },
    };
  };
  const cases = interactionStoreConformance(flaky, { holdMs: 20, timeoutMs: 500 });
  const failures = (await failingCases(cases, isFailure, "flaky")).length;
  assert.ok(failures > 0, "a driver that fails 10% of calls must not pass every case silently");
});

Deno.test("conformance kit: lost-ack and clock-rewind cases run by default; skipped only when declared lacking", async () => {
  const lean = interactionStoreConformance(() => memoryHarness(), {
    lacks: ["lost-acks", "clock-rewind"],
  });
  const skipped = lean.filter((c) => c.skip !== undefined);
  assert.equal(skipped.length, 3);
  assert.ok(skipped.some((c) => /clock step back/.test(c.name)));
  assert.equal(skipped.filter((c) => /lost acknowledgement/.test(c.name)).length, 2);
  const bare = () => ({ ...memoryHarness(), loseNextAck: undefined, rewindClock: undefined });
  for (
    const c of interactionStoreConformance(bare).filter((x) =>
      /lost acknowledgement|clock step back/.test(x.name)
    )
  ) {
    assert.equal(c.skip, undefined);
    await assert.rejects(() => c.run(), /or declare it lacks/);
  }
});

Deno.test("conformance kit: an async harness factory (setup, per-worker connect, teardown) is driven as documented", async () => {
  const log: string[] = [];
  const delay = () => new Promise<void>((r) => setTimeout(r, 1));
  const c = interactionStoreConformance(async ({ name }) => {
    await delay();
    log.push(`setup ${name}`);
    const inner = memoryInteractionHarness({ pause: delay });
    return {
      ...inner,
      now: async () => (await delay(), inner.now()),
      connect: async () => {
        await delay();
        const w = await inner.connect();
        log.push("connect");
        return { ...w, close: () => void log.push("close worker") };
      },
      close: () => void log.push("close harness"),
    };
  }, { holdMs: 20 }).find((x) => x.name.includes("separate instances"))!;
  await c.run();
  assert.equal(log[0], `setup ${c.name}`);
  assert.equal(log.at(-1), "close harness");
  const connects = log.filter((l) => l === "connect").length;
  assert.ok(connects >= 8, `one instance per worker plus a probe, got ${connects}`);
  assert.equal(log.filter((l) => l === "close worker").length, connects);
});

Deno.test("conformance kit: a failing case rejects with InteractionConformanceError", async () => {
  const c = interactionStoreConformance(() => flawedHarness("no-authority-recheck"))
    .find((x) => x.name.startsWith("store: the fence rechecks revoked"));
  assert.ok(c);
  await assert.rejects(() => c.run(), { name: "InteractionConformanceError" });
});
