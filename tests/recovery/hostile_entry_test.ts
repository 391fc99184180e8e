// "Never throws" for every TurnRecovery entry point (and CancelRelay's
// notice handling) against the shared hostile generator: hostile values in
// every argument position and in every request field, ≥ 10^4 runs each.
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { hostile, HOSTILE_RUNS, hostileLike } from "../_helpers/hostile.ts";
import { CancelRelay } from "../../src/recovery/cancel_relay.ts";
import { MemoryCancelDelivery } from "../../src/recovery/memory_cancel_delivery.ts";
import { MemoryExecutions, TurnRecovery } from "../../recovery.ts";
import { setup } from "./_helpers.ts";

const id = fc.constantFrom("t1", "e1", "alice", "x");
const request = hostileLike(fc.record({
  turnId: id,
  effectId: id,
  principal: id,
  conversationId: id,
  effectIds: fc.array(id, { maxLength: 3 }),
  reason: fc.string({ maxLength: 5 }),
  evidence: fc.string({ maxLength: 5 }),
  claimToken: fc.string({ maxLength: 5 }),
  actor: fc.constantFrom("user", "system", "admin"),
  outcome: fc.constantFrom({ ok: true, value: 1 }, { ok: false, error: "no" }),
}));

const METHODS = [
  "beginTurn",
  "runEffect",
  "cancel",
  "expire",
  "reconcile",
  "recordNotRun",
  "resume",
  "inspect",
] as const;

for (const method of METHODS) {
  Deno.test(`TurnRecovery.${method} never throws or rejects on hostile requests (${HOSTILE_RUNS} runs)`, async () => {
    const { host } = await setup({}, ["e1"]);
    const w = new TurnRecovery({ ...host.seams(), renewEveryMs: 0, backoff: { baseMs: 0 } });
    await fc.assert(
      fc.asyncProperty(fc.oneof(request, hostile()), async (h) => {
        const value = h.build();
        let arg = value;
        try {
          // Give well-shaped requests a dispatch, so runs reach the store.
          if (method === "runEffect") arg = { ...(value as object), dispatch: () => 1 };
        } catch {
          arg = value;
        }
        const r = await (w[method] as (a: unknown) => Promise<{ ok: unknown }>)(arg);
        assert.equal(typeof r.ok, "boolean");
      }),
      { numRuns: HOSTILE_RUNS, seed: 11 },
    );
  });
}

Deno.test(`TurnRecovery's constructor never throws on hostile options (${HOSTILE_RUNS} runs)`, async () => {
  await fc.assert(
    fc.asyncProperty(hostile(), async (h) => {
      const w = new TurnRecovery(h.build() as never);
      const r = await w.cancel({ turnId: "t1", principal: "alice" });
      assert.equal(r.ok, false);
    }),
    { numRuns: HOSTILE_RUNS, seed: 12 },
  );
});

Deno.test(`CancelRelay ignores hostile notices and never throws (${HOSTILE_RUNS} runs)`, async () => {
  const { host } = await setup({}, ["e1"]);
  let deliver: (notice: unknown) => void = () => {};
  const delivery = {
    publish: () => {},
    subscribe: (listener: (n: never) => void) => {
      deliver = listener as (notice: unknown) => void;
      return { unsubscribe: () => {} };
    },
  };
  const exec = new MemoryExecutions();
  const relay = new CancelRelay({ delivery, store: host.store, abort: exec });
  assert.ok(await relay.start());
  await fc.assert(
    fc.asyncProperty(fc.oneof(hostile(), hostileLike(fc.record({ turnId: id }))), async (h) => {
      deliver(h.build());
      await relay.settled();
    }),
    { numRuns: HOSTILE_RUNS, seed: 13 },
  );
  assert.equal(exec.signalFor("t1").aborted, false, "the running turn was never aborted");
  await relay.stop();
});

Deno.test("MemoryCancelDelivery refuses an unreadable notice without delivering it", async () => {
  const delivery = new MemoryCancelDelivery();
  let got = 0;
  delivery.subscribe(() => got++);
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  await assert.rejects(() => delivery.publish(revoked.proxy as never), TypeError);
  await delivery.publish({ turnId: "t1", revision: 2, status: "cancelled", reason: "x" });
  assert.equal(got, 1);
});
