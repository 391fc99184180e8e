// The owner's lease: fresh at admission, dispatch only with a safe margin
// left, renewal timed from the lease left, the dispatch aborted before the
// lease could end unrenewed; unguessable claim tokens that inspect() never
// shows; bounded lease options and a clock in seconds refused.
import assert from "node:assert/strict";
import {
  LeaseLostError,
  MAX_TIMER_MS,
  MemoryExecutions,
  MemoryRecoveryDatabase,
  MemoryRecoveryStore,
  REDACTED_CLAIM_TOKEN,
  TurnRecovery,
  type TurnRecoveryOptions,
} from "../../recovery.ts";
import { code, deferred, delegate, testClock, value } from "./_helpers.ts";
import { handled } from "../_helpers/settled.ts";

const LEASE = 300;

/** Two workers (each its own adapter instance) over one database, on one settable clock. */
async function pair(
  fence: MemoryRecoveryStore["admitDispatch"] | undefined = undefined,
  options: Partial<TurnRecoveryOptions> = {},
) {
  const clock = testClock();
  const database = new MemoryRecoveryDatabase();
  const admin = new MemoryRecoveryStore({ database });
  await admin.grant("alice", "t1");
  const exec = new MemoryExecutions();
  const ownerStore = new MemoryRecoveryStore({ database });
  const base = { authority: admin.authority(), abort: exec, now: clock.now, leaseMs: LEASE };
  const owner = new TurnRecovery({
    ...base,
    renewEveryMs: 0,
    ...options,
    workerId: "owner",
    store: fence ? delegate(ownerStore, { admitDispatch: fence }) : ownerStore,
  });
  const other = new TurnRecovery({
    ...base,
    workerId: "other",
    store: new MemoryRecoveryStore({ database }),
  });
  await owner.beginTurn({
    conversationId: "c",
    turnId: "t1",
    principal: "alice",
    effectIds: ["e1"],
  });
  return { clock, admin, owner, other, ownerStore };
}

const req = { turnId: "t1", effectId: "e1", principal: "alice" };

Deno.test("lease: a slow admission fence gives the owner a fresh lease: no owner-lost, no recordNotRun while its dispatch runs", async () => {
  // deno-lint-ignore prefer-const -- the fence below closes over it before it is assigned
  let ctx!: Awaited<ReturnType<typeof pair>>;
  // The admission waits 250 ms of a 300 ms lease (lock wait, round trips).
  ctx = await pair((r) => {
    ctx.clock.advance(250);
    return ctx.ownerStore.admitDispatch(r);
  });
  const started = deferred();
  const finish = deferred<string>();
  let dispatches = 0;
  const run = handled(ctx.owner.runEffect({
    ...req,
    dispatch: () => {
      dispatches++;
      started.resolve();
      return finish.promise;
    },
  }));
  await started.promise;
  ctx.clock.advance(70); // 320 ms after the claim: the claim's own lease has ended
  const seen = value(await ctx.other.runEffect({ ...req, dispatch: () => ++dispatches }));
  assert.equal(
    seen.status === "needs-reconciliation" && seen.reason,
    "in-flight",
    "the owner's lease ran out while its dispatch ran",
  );
  assert.equal(code(await ctx.other.recordNotRun({ ...req, evidence: "x" })), "lease-live");
  finish.resolve("owner");
  const done = value(await run);
  assert.ok(done.status === "completed" && done.outcome.ok && done.outcome.value === "owner");
  assert.equal(dispatches, 1);
});

Deno.test("lease: a fence that ignores the fresh leaseUntil gets a renewal by CAS before the dispatch starts", async () => {
  // deno-lint-ignore prefer-const -- the fence below closes over it before it is assigned
  let ctx!: Awaited<ReturnType<typeof pair>>;
  let leftAtDispatch = Number.NaN;
  ctx = await pair(async (r) => {
    ctx.clock.advance(200); // two thirds of the claim's lease spent inside the fence
    const { leaseUntil: _ignored, ...old } = r;
    return await ctx.ownerStore.admitDispatch(old);
  });
  const r = value(
    await ctx.owner.runEffect({
      ...req,
      dispatch: () => {
        leftAtDispatch = ctx.admin.peekEffect("t1", "e1")!.leaseUntil! - ctx.clock.now();
        return "ok";
      },
    }),
  );
  assert.equal(r.status, "completed");
  assert.equal(leftAtDispatch, LEASE, "the dispatch must start on a fresh lease");
});

Deno.test("lease: no dispatch with less than half the lease left; the owner records its own not-run and claims again", async () => {
  // deno-lint-ignore prefer-const -- the fence below closes over it before it is assigned
  let ctx!: Awaited<ReturnType<typeof pair>>;
  let admissions = 0;
  let dispatches = 0;
  ctx = await pair((r) => {
    admissions++;
    // The first admission: the fence and every renewal are too slow to leave half the lease.
    if (admissions === 1) ctx.clock.advance(200);
    const { leaseUntil: _ignored, ...old } = r;
    return ctx.ownerStore.admitDispatch(old);
  });
  // Make the one renewal before dispatch useless: the clock jumps inside it too.
  const renewStore = ctx.ownerStore;
  const casEffect = renewStore.casEffect.bind(renewStore);
  renewStore.casEffect = async (t, e, x, next) => {
    const out = await casEffect(t, e, x, next);
    if (admissions === 1 && next.state === "admitted") ctx.clock.advance(200);
    return out;
  };
  const r = value(await ctx.owner.runEffect({ ...req, dispatch: () => ++dispatches }));
  assert.equal(r.status, "completed");
  assert.equal(dispatches, 1);
  assert.equal(admissions, 2, "the first admission must not dispatch");
  const e = ctx.admin.peekEffect("t1", "e1")!;
  assert.equal(e.claims, 2);
});

Deno.test("lease: the dispatch's signal aborts when a quarter of the lease is left without a confirmed renewal", async () => {
  // A 40 ms lease on the injected clock (which never moves here), renewal
  // disabled: the guard is armed for 30 ms and nothing else can abort the
  // signal, so a slow machine only makes the abort later, never wrong.
  const ctx = await pair(undefined, { leaseMs: 40, renewEveryMs: 0 });
  let renewals = 0;
  let reason: unknown;
  const casEffect = ctx.ownerStore.casEffect.bind(ctx.ownerStore);
  ctx.ownerStore.casEffect = (t, e, x, next) => {
    if (next.state === "admitted") renewals++;
    return casEffect(t, e, x, next);
  };
  const r = await ctx.owner.runEffect({
    ...req,
    dispatch: (signal) =>
      new Promise((resolve, reject) => {
        // Only a give-up bound for a guard that never fires (a 30 ms timer).
        const bound = setTimeout(() => reject(new Error("the signal never aborted")), 60_000);
        signal.addEventListener("abort", () => {
          clearTimeout(bound);
          reason = signal.reason;
          resolve(String(signal.reason?.message));
        });
      }),
  });
  const v = value(r);
  assert.ok(v.status === "completed" && v.outcome.ok, "the dispatch's outcome is recorded");
  assert.match(String(v.outcome.value), /lease .* could not be renewed in time/);
  assert.ok(reason instanceof LeaseLostError, `the abort reason is a LeaseLostError: ${reason}`);
  assert.equal(reason.code, "lease-not-renewed");
  assert.equal(renewals, 0, "renewal is disabled");
});

Deno.test("lease: a renewal keeps the guard from aborting a dispatch longer than the lease", async () => {
  // The injected clock moves only when the dispatch says so: a third of the
  // lease at a time, then the dispatch waits (a barrier, no sleep) for the
  // renewals that follow (or for the signal to abort), then checks that
  // the lease was extended from the new reading. Eight steps span 2.7
  // leases: a renewal that does not extend the lease fails the check;
  // without any renewal the guard aborts after 45 s. The lease is long in
  // real time, so a busy machine that delays a renewal timer cannot fire the
  // guard before the test ends.
  const lease = 60_000;
  const ctx = await pair(undefined, { leaseMs: lease, renewEveryMs: 10 });
  const renewed: number[] = [];
  let waiter: { count: number; resolve: () => void } | undefined;
  const casEffect = ctx.ownerStore.casEffect.bind(ctx.ownerStore);
  ctx.ownerStore.casEffect = async (t, e, x, next) => {
    const out = await casEffect(t, e, x, next);
    if (next.state === "admitted" && out.ok) {
      renewed.push(next.leaseUntil!);
      if (waiter && renewed.length >= waiter.count) waiter.resolve();
    }
    return out;
  };
  let aborted = false;
  const r = await ctx.owner.runEffect({
    ...req,
    dispatch: async (signal) => {
      // The second renewal confirmed after the clock moved read the clock
      // after it moved (it is scheduled when the first one completes).
      const twoRenewals = () => {
        const d = deferred();
        waiter = { count: renewed.length + 2, resolve: () => d.resolve() };
        signal.addEventListener("abort", () => d.resolve(), { once: true });
        return d.promise;
      };
      signal.addEventListener("abort", () => void (aborted = true));
      for (let i = 0; i < 8; i++) {
        ctx.clock.advance(lease / 3);
        await twoRenewals();
        const e = ctx.admin.peekEffect("t1", "e1")!;
        assert.ok(e.leaseUntil! >= ctx.clock.now() + lease, `renewal ${i} extends the lease`);
        if (signal.aborted) return "aborted";
      }
      return "done";
    },
  });
  const v = value(r);
  assert.ok(v.status === "completed" && v.outcome.ok && v.outcome.value === "done");
  assert.equal(aborted, false, "a renewed lease must not abort the dispatch");
  assert.ok(renewed.length >= 8, `${renewed.length} renewals`);
});

Deno.test("claim tokens: 128 random bits, never shown by inspect(), so only the owner can bypass its live lease", async () => {
  const ctx = await pair();
  const started = deferred();
  const finish = deferred<string>();
  let dispatches = 0;
  const run = handled(ctx.owner.runEffect({
    ...req,
    dispatch: () => {
      dispatches++;
      started.resolve();
      return finish.promise;
    },
  }));
  await started.promise;
  const real = ctx.admin.peekEffect("t1", "e1")!.claimToken;
  assert.match(real, /^owner#[0-9a-f]{32}$/);
  const snap = await ctx.other.inspect("t1");
  assert.ok(snap.ok);
  assert.equal(snap.value.effects[0]?.claimToken, REDACTED_CLAIM_TOKEN);
  for (const guess of [REDACTED_CLAIM_TOKEN, "owner#1", "owner#2"]) {
    assert.equal(code(await ctx.other.recordNotRun({ ...req, claimToken: guess })), "lease-live");
  }
  finish.resolve("charged");
  assert.equal(value(await run).status, "completed");
  assert.equal(dispatches, 1);
});

Deno.test("options: leaseMs beyond the timer range is clamped to 2^31-1 ms (no timer overflow, no renewal storm)", async () => {
  const ctx = await pair(undefined, { leaseMs: 2 ** 33, renewEveryMs: undefined });
  let casEffects = 0;
  const casEffect = ctx.ownerStore.casEffect.bind(ctx.ownerStore);
  ctx.ownerStore.casEffect = (...a) => {
    casEffects++;
    return casEffect(...a);
  };
  let leaseSpan = 0;
  const r = await ctx.owner.runEffect({
    ...req,
    dispatch: async () => {
      leaseSpan = ctx.admin.peekEffect("t1", "e1")!.leaseUntil! - ctx.clock.now();
      for (let i = 0; i < 20; i++) await new Promise((res) => setTimeout(res, 1));
      return "x";
    },
  });
  assert.equal(value(r).status, "completed");
  assert.equal(leaseSpan, MAX_TIMER_MS);
  assert.equal(casEffects, 2, "one claim and one completion, no renewals");
});

Deno.test("options: a host clock in seconds fails closed (store-unavailable), nothing claimed", async () => {
  const ctx = await pair(undefined, { now: () => 1_700_000_000 });
  const r = await ctx.owner.runEffect({ ...req, dispatch: () => 1 });
  assert.equal(code(r), "store-unavailable");
  assert.equal(ctx.admin.peekEffect("t1", "e1"), null);
});
