// The semantic gaps of issue 11, each pinned by a test that fails on the
// code before leases (see the commit message): claim takeover livelock,
// reconcile while the owner runs, resume while the owner lives, admitted but
// never launched, server-side cancel after revocation, cancel across processes.
import assert from "node:assert/strict";
import { seededRandom } from "../../src/_internal/kit_support.ts";
import {
  DEFAULT_LEASE_MS,
  type EffectRun,
  MemoryExecutions,
  MemoryRecoveryHost,
  type RecoveryError,
  type RecoveryStore,
  TurnRecovery,
} from "../../recovery.ts";
import { CancelRelay } from "../../src/recovery/cancel_relay.ts";
import { MemoryCancelDelivery } from "../../src/recovery/memory_cancel_delivery.ts";
import type { Result } from "../../src/result.ts";
import {
  code,
  deferred,
  delegate,
  dyingWorker,
  runAsAlice,
  setup,
  testClock,
  value,
} from "./_helpers.ts";
import { handled } from "../_helpers/settled.ts";

const turn = { conversationId: "c1", turnId: "t1", principal: "alice" };

/** Wait until `f()` holds (microtasks, then 1 ms timers), at most 2 s. */
async function until(f: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !f(); i++) {
    await (i < 100 ? Promise.resolve() : new Promise((r) => setTimeout(r, 1)));
  }
  assert.ok(f(), "condition never held");
}

Deno.test("claims: 8 workers, several round trips per fence: no contention, each effect costs 3 revisions", async () => {
  let contention = 0;
  let runs = 0;
  for (let seed = 1; seed <= 10; seed++) {
    const random = seededRandom(seed);
    const roundTrip = () => new Promise<void>((r) => setTimeout(r, random() * 2));
    const host = new MemoryRecoveryHost({ store: { pause: roundTrip } });
    // An adapter whose fence costs several round trips (lock, authority read, mark, commit).
    const store = delegate(host.store, {
      admitDispatch: async (r) => {
        for (let i = 0; i < 3; i++) await roundTrip();
        return host.store.admitDispatch(r);
      },
    });
    await host.grant("alice", "t1");
    const effectIds = ["e1", "e2", "e3"];
    const first = new TurnRecovery({ ...host.seams(), store });
    assert.ok((await first.beginTurn({ ...turn, effectIds })).ok);
    let dispatches = 0;
    const all = await Promise.all(
      Array.from({ length: 8 }, () => new TurnRecovery({ ...host.seams(), store })).flatMap((w) =>
        effectIds.map((effectId) =>
          w.runEffect({ turnId: "t1", effectId, principal: "alice", dispatch: () => ++dispatches })
        )
      ),
    );
    runs += all.length;
    contention += all.filter((r) => !r.ok && r.error.code === "contention").length;
    assert.equal(dispatches, 3);
    for (const e of effectIds) assert.equal(host.store.peekEffect("t1", e)?.revision, 3);
  }
  assert.equal(contention, 0, `${contention} of ${runs} runs ended in contention`);
});

Deno.test("claims: a claim is taken over only after its lease, and one effect takes at most maxClaims claims", async () => {
  const clock = testClock();
  const { host } = await setup({}, ["e1"]);
  // Workers that claim and die before admission (their admission never arrives).
  const dying = (): TurnRecovery =>
    new TurnRecovery({
      ...host.seams(),
      now: clock.now,
      maxClaims: 3,
      store: delegate(host.store, { admitDispatch: () => new Promise(() => {}) }),
    });
  void runAsAlice(dying(), () => 1);
  await until(() => host.store.peekEffect("t1", "e1")?.state === "claimed");
  const waiting = value(await runAsAlice(dying(), () => 1));
  assert.equal(waiting.status === "needs-reconciliation" && waiting.reason, "claimed-elsewhere");
  assert.equal(host.store.peekEffect("t1", "e1")?.revision, 1, "a live claim is not taken over");
  for (let claims = 2; claims <= 3; claims++) {
    clock.advance(DEFAULT_LEASE_MS);
    void runAsAlice(dying(), () => 1);
    await until(() => host.store.peekEffect("t1", "e1")?.claims === claims);
  }
  clock.advance(DEFAULT_LEASE_MS);
  const limited = await runAsAlice(dying(), () => 1);
  assert.equal(code(limited), "claim-limit");
  assert.equal(host.store.peekEffect("t1", "e1")?.revision, 3);
});

Deno.test("claims: conflicting writes back off with jitter", async () => {
  const { host } = await setup();
  const conflicting = delegate(host.store, {
    casTurn: async (id) => ({
      ok: false,
      code: "conflict",
      current: await host.store.readTurn(id),
    }),
  });
  const slow = new TurnRecovery({
    ...host.seams(),
    store: conflicting,
    maxAttempts: 3,
    backoff: { baseMs: 20, maxMs: 100 },
    random: () => 0.99,
  });
  const t0 = performance.now();
  assert.equal(code(await slow.cancel({ turnId: "t1", principal: "alice" })), "contention");
  // Waits before retries 1 and 2: 0.99 · 20 + 0.99 · 40 ms.
  assert.ok(performance.now() - t0 >= 55, `waited only ${performance.now() - t0} ms`);
});

Deno.test("reconcile: refused while the owner's lease is live; the owner's real result then lands", async () => {
  const clock = testClock();
  const { host, worker } = await setup({}, ["e1"], { now: clock.now, renewEveryMs: 0 });
  const work = deferred<string>();
  const running = runAsAlice(worker, () => work.promise);
  await until(() => host.store.peekEffect("t1", "e1")?.state === "admitted");
  const other = new TurnRecovery({ ...host.seams(), now: clock.now });
  const guess = {
    turnId: "t1",
    effectId: "e1",
    principal: "alice",
    outcome: { ok: true, value: "guess" },
  } as const;
  const early = await other.reconcile(guess);
  assert.equal(code(early), "lease-live");
  assert.ok(!early.ok && early.error.retryAt === clock.now() + DEFAULT_LEASE_MS);
  // The run the host was told about waits, never reconciles.
  const told = value(await runAsAlice(other, () => 0));
  assert.ok(
    told.status === "needs-reconciliation" && told.action === "wait" && told.reason === "in-flight",
  );
  work.resolve("real");
  assert.deepEqual(value(await running), {
    status: "completed",
    outcome: { ok: true, value: "real" },
    reused: false,
  });
  assert.deepEqual(host.store.peekEffect("t1", "e1")?.outcome, { ok: true, value: "real" });
});

Deno.test("reconcile: after the lease, a late owner result is reported with both outcomes, never as reused", async () => {
  const clock = testClock();
  const { host, worker } = await setup({}, ["e1"], { now: clock.now, renewEveryMs: 0 });
  const work = deferred<string>();
  let started = false;
  const running = handled(runAsAlice(worker, () => {
    started = true;
    return work.promise;
  }));
  await until(() => started);
  clock.advance(DEFAULT_LEASE_MS); // the owner stalls past its lease
  const other = new TurnRecovery({ ...host.seams(), now: clock.now });
  const lost = value(await runAsAlice(other, () => 0));
  assert.ok(
    lost.status === "needs-reconciliation" && lost.action === "reconcile" &&
      lost.reason === "owner-lost",
  );
  const rec = await other.reconcile({
    turnId: "t1",
    effectId: "e1",
    principal: "alice",
    outcome: { ok: true, value: "guess" },
  });
  assert.ok(rec.ok && rec.value.changed);
  work.resolve("real");
  const late = await running;
  assert.equal(code(late), "checkpoint-write-failed");
  assert.ok(!late.ok);
  assert.deepEqual(late.error.outcome, { ok: true, value: "real" });
  assert.deepEqual(late.error.stored, { ok: true, value: "guess" });
});

Deno.test("leases: a running dispatch renews its lease, so the host cannot reconcile it while it runs", async () => {
  const clock = testClock();
  const { host, worker } = await setup({}, ["e1"], {
    now: clock.now,
    leaseMs: 90,
    renewEveryMs: 5,
  });
  const work = deferred<string>();
  const running = runAsAlice(worker, () => work.promise);
  await until(() => host.store.peekEffect("t1", "e1")?.state === "admitted");
  const first = host.store.peekEffect("t1", "e1")!.leaseUntil!;
  clock.advance(60);
  await until(() => (host.store.peekEffect("t1", "e1")?.leaseUntil ?? 0) > first);
  clock.advance(60); // past the first lease, within the renewed one
  const other = new TurnRecovery({ ...host.seams(), now: clock.now });
  const early = await other.reconcile({
    turnId: "t1",
    effectId: "e1",
    principal: "alice",
    outcome: { ok: true, value: "guess" },
  });
  assert.equal(code(early), "lease-live");
  work.resolve("real");
  assert.equal(value(await running).status, "completed");
});

Deno.test("resume: refused while an owner's lease is live (it may be running); allowed once it ended", async () => {
  const clock = testClock();
  const { host, worker } = await setup({}, ["e1"], { now: clock.now, renewEveryMs: 0 });
  const work = deferred<string>();
  const running = runAsAlice(worker, () => work.promise);
  await until(() => host.store.peekEffect("t1", "e1")?.state === "admitted");
  const restarted = new TurnRecovery({ ...host.seams(), now: clock.now });
  assert.equal(code(await restarted.resume({ turnId: "t1", principal: "alice" })), "lease-live");
  work.resolve("real");
  assert.equal(value(await running).status, "completed");
  assert.equal(host.store.peekTurn("t1")?.status, "running", "the live owner finished normally");
  const after = await restarted.resume({ turnId: "t1", principal: "alice" });
  assert.ok(after.ok && after.value.completed.join() === "e1");
});

Deno.test("not-run: an admitted effect that never launched is closed by a verified not-run and runs exactly once", async () => {
  const clock = testClock();
  const { host } = await setup({}, ["e1", "e2"]);
  // The owner dies after its admission committed, before dispatching (its ack never arrives).
  const dead = dyingWorker(host, { now: clock.now });
  let dispatches = 0;
  void runAsAlice(dead.worker, () => ++dispatches);
  await until(dead.committed);
  clock.advance(DEFAULT_LEASE_MS);
  const hostWorker = new TurnRecovery({ ...host.seams(), now: clock.now });
  const resumed = await hostWorker.resume({ turnId: "t1", principal: "alice" });
  assert.ok(resumed.ok && resumed.value.needsReconciliation.join() === "e1");
  // The whole turn waits for the host's verification…
  assert.equal(code(await runAsAlice(hostWorker, () => ++dispatches, "e2")), "turn-not-running");
  // …which must be evidence that it did not run: a completed effect cannot be marked not-run.
  const nr = await hostWorker.recordNotRun({
    turnId: "t1",
    effectId: "e1",
    principal: "alice",
    evidence: "no charge with idempotency key t1/e1",
  });
  assert.ok(nr.ok && nr.value.changed && nr.value.turnStatus === "running");
  assert.equal(nr.value.record.state, "not-run");
  assert.equal(nr.value.record.reason, "no charge with idempotency key t1/e1");
  for (const e of ["e1", "e2"]) {
    assert.equal(value(await runAsAlice(hostWorker, () => ++dispatches, e)).status, "completed");
  }
  assert.equal(dispatches, 2);
  const again = await hostWorker.recordNotRun({ turnId: "t1", effectId: "e1", principal: "alice" });
  assert.equal(code(again), "effect-state");
  assert.ok(!again.ok && again.error.state === "completed");
  const never = await hostWorker.recordNotRun({ turnId: "t1", effectId: "e2", principal: "alice" });
  assert.equal(code(never), "effect-state");
});

Deno.test("not-run: a racing owner renewal makes recordNotRun conflict and re-check the lease (never a stale write)", async () => {
  const clock = testClock();
  const { host } = await setup({}, ["e1"]);
  const dead = dyingWorker(host, { now: clock.now });
  void runAsAlice(dead.worker, () => 1);
  await until(dead.committed);
  clock.advance(DEFAULT_LEASE_MS);
  const admitted = host.store.peekEffect("t1", "e1")!;
  // The "dead" owner comes back and renews just before the host's write lands.
  let renewed = false;
  const racing: RecoveryStore = delegate(host.store, {
    casEffect: async (t, e, rev, next) => {
      if (!renewed) {
        renewed = true;
        const { revision: _r, ...rest } = admitted;
        await host.store.casEffect(t, e, admitted.revision, {
          ...rest,
          leaseUntil: clock.now() + 1000,
        });
      }
      return host.store.casEffect(t, e, rev, next);
    },
  });
  const w = new TurnRecovery({ ...host.seams(), store: racing, now: clock.now });
  const r = await w.recordNotRun({ turnId: "t1", effectId: "e1", principal: "alice" });
  assert.equal(code(r), "lease-live");
  assert.equal(host.store.peekEffect("t1", "e1")?.state, "admitted");
});

Deno.test("system authority: after the user's authority is revoked, the host cancels and expires; checked under the turn lock", async () => {
  const { host, worker } = await setup({}, ["e1"]);
  await host.revoke("alice", "t1");
  assert.equal(code(await worker.cancel({ turnId: "t1", principal: "alice" })), "unauthorized");
  assert.equal(
    code(await worker.cancel({ turnId: "t1", principal: "reaper", actor: "system" })),
    "unauthorized",
  );
  await host.grant("reaper", "*", "system");
  // A stale seam that says yes to everyone: the store's guard still refuses a revoked user.
  const stale = new TurnRecovery({ ...host.seams(), authority: { check: () => true } });
  assert.equal(code(await stale.cancel({ turnId: "t1", principal: "alice" })), "unauthorized");
  const sys = await worker.cancel({
    turnId: "t1",
    principal: "reaper",
    actor: "system",
    reason: "account closed",
  });
  assert.ok(
    sys.ok && sys.value.turn.status === "cancelled" && sys.value.turn.reason === "account closed",
  );
  assert.ok(host.executions.signalFor("t1").aborted);
  // expire is system-only, ends the turn as failed.
  await host.grant("alice", "t2");
  assert.ok((await worker.beginTurn({ ...turn, turnId: "t2", effectIds: ["e1"] })).ok);
  assert.equal(
    code(await worker.expire({ turnId: "t2", principal: "alice", actor: "user" as never })),
    "invalid-request",
  );
  const ex = await worker.expire({ turnId: "t2", principal: "reaper", reason: "deadline" });
  assert.ok(ex.ok && ex.value.turn.status === "failed");
  assert.equal(
    code(await worker.expire({ turnId: "t2", principal: "reaper" })),
    "turn-not-running",
  );
});

Deno.test("cross-process cancel: a cancel in process A aborts a dispatch running in process B; forged notices abort nothing", async () => {
  const host = new MemoryRecoveryHost();
  await host.grant("alice", "t1");
  const delivery = new MemoryCancelDelivery();
  const execB = new MemoryExecutions();
  const relayB = new CancelRelay({ delivery, store: host.store, abort: execB });
  assert.ok(await relayB.start());
  const a = new TurnRecovery({
    ...host.seams(),
    abort: new MemoryExecutions(),
    cancelDelivery: delivery,
  });
  const b = new TurnRecovery({ ...host.seams(), abort: execB });
  assert.ok((await a.beginTurn({ ...turn, effectIds: ["e1"] })).ok);
  // A forged notice for a running turn aborts nothing (the relay re-reads the turn).
  await delivery.publish({ turnId: "t1", revision: 9, status: "cancelled", reason: "forged" });
  await relayB.settled();
  assert.equal(execB.signalFor("t1").aborted, false);
  let sawAbort = false;
  const running = handled(b.runEffect({
    turnId: "t1",
    effectId: "e1",
    principal: "alice",
    dispatch: (signal) =>
      new Promise((resolve) => signal.addEventListener("abort", () => resolve(sawAbort = true))),
  }));
  await until(() => host.store.peekEffect("t1", "e1")?.state === "admitted");
  const c = await a.cancel({ turnId: "t1", principal: "alice" });
  assert.ok(c.ok && c.value.deliveryError === undefined);
  await relayB.settled();
  assert.equal(execB.signalFor("t1").aborted, true);
  assert.equal(value(await running).status, "completed");
  assert.equal(sawAbort, true);
  await relayB.stop();
});

Deno.test("cross-process cancel: a lost notice is caught by the running worker's next lease renewal", async () => {
  const host = new MemoryRecoveryHost();
  await host.grant("alice", "t1");
  const delivery = new MemoryCancelDelivery();
  delivery.dropNext();
  const execB = new MemoryExecutions();
  const a = new TurnRecovery({
    ...host.seams(),
    abort: new MemoryExecutions(),
    cancelDelivery: delivery,
  });
  const b = new TurnRecovery({ ...host.seams(), abort: execB, renewEveryMs: 5 });
  assert.ok((await a.beginTurn({ ...turn, effectIds: ["e1"] })).ok);
  const running = handled(b.runEffect({
    turnId: "t1",
    effectId: "e1",
    principal: "alice",
    dispatch: (signal) =>
      new Promise((resolve) => signal.addEventListener("abort", () => resolve("stopped"))),
  }));
  await until(() => host.store.peekEffect("t1", "e1")?.state === "admitted");
  assert.ok((await a.cancel({ turnId: "t1", principal: "alice" })).ok);
  assert.equal(delivery.published, 1);
  await until(() => execB.signalFor("t1").aborted);
  const r: Result<EffectRun, RecoveryError> = await running;
  assert.equal(value(r).status, "completed");
});
