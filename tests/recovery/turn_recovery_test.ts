import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  connectionReplayOnlyProfile,
  DEFAULT_LEASE_MS,
  MemoryRecoveryHost,
  type RecoveryStore,
  type StoreEvent,
  TurnRecovery,
} from "../../recovery.ts";
import {
  code,
  deferred,
  delegate,
  faultPlan,
  runAsAlice,
  setup,
  testClock,
  value,
} from "./_helpers.ts";
import { handled } from "../_helpers/settled.ts";

Deno.test("effects: a turn starts with host-authorized ids; model-supplied ids authorize nothing", async () => {
  const { host, worker } = await setup();
  let dispatched = 0;
  const r = await runAsAlice(worker, () => dispatched++, "model-made-up-id");
  assert.equal(code(r), "unknown-effect");
  assert.equal(dispatched, 0);
  assert.equal(host.store.peekEffect("t1", "model-made-up-id"), null);
  // Beginning requires authority and unique ids.
  assert.equal(
    code(
      await worker.beginTurn({
        conversationId: "c1",
        turnId: "t2",
        principal: "alice",
        effectIds: [],
      }),
    ),
    "unauthorized",
  );
  host.grant("alice", "t3");
  assert.equal(
    code(
      await worker.beginTurn({
        conversationId: "c1",
        turnId: "t3",
        principal: "alice",
        effectIds: ["a", "a"],
      }),
    ),
    "invalid-request",
  );
  assert.equal(
    code(
      await worker.beginTurn({
        conversationId: "c1",
        turnId: "t1",
        principal: "alice",
        effectIds: [],
      }),
    ),
    "turn-exists",
  );
});

Deno.test("effects: claimed before dispatch, admitted then launched; a completed result is reused, never re-run", async () => {
  const events: StoreEvent[] = [];
  const { host } = await setup({ store: { observe: (e) => events.push(e) } });
  const a = new TurnRecovery(host.seams());
  const b = new TurnRecovery(host.seams());
  let runs = 0;
  const dispatch = () => ({ n: ++runs });
  const first = value(
    await a.runEffect({ turnId: "t1", effectId: "e1", principal: "alice", dispatch }),
  );
  assert.deepEqual(first, {
    status: "completed",
    outcome: { ok: true, value: { n: 1 } },
    reused: false,
  });
  const again = value(
    await b.runEffect({ turnId: "t1", effectId: "e1", principal: "alice", dispatch }),
  );
  assert.deepEqual(again, {
    status: "completed",
    outcome: { ok: true, value: { n: 1 } },
    reused: true,
  });
  assert.equal(runs, 1);
  const kinds = events
    .filter((e) => e.kind !== "commit-turn")
    .map((e) => e.kind === "commit-effect" ? `effect:${e.record.state}` : e.kind);
  // The fence invokes launch after writing the mark and before its commit is visible.
  assert.deepEqual(kinds, ["effect:claimed", "launch", "admit", "effect:completed"]);
  assert.equal(host.store.peekEffect("t1", "e1")?.state, "completed");
});

Deno.test("effects: a delayed (stale) turn snapshot cannot authorize launch", async () => {
  const { host, worker } = await setup();
  const stale = host.store.peekTurn("t1")!;
  assert.ok((await worker.cancel({ turnId: "t1", principal: "alice" })).ok);
  // A worker whose turn read is delayed still sees `running`.
  const laggy = delegate(host.store, { readTurn: () => Promise.resolve(stale) });
  const w = new TurnRecovery({ ...host.seams(), store: laggy });
  let dispatched = 0;
  const r = await runAsAlice(w, () => dispatched++);
  assert.equal(code(r), "turn-not-running");
  assert.equal(dispatched, 0);
  assert.equal(host.store.peekEffect("t1", "e1")?.state, "claimed");
});

Deno.test("effects: a late abort hook cannot authorize launch (cancel committed, hook still pending)", async () => {
  const { host } = await setup();
  const gate = deferred<void>();
  const seams = host.seams();
  const slowAbort = {
    signalFor: (t: string) => seams.abort.signalFor(t),
    abort: async (t: string, reason: string) => {
      await gate.promise;
      seams.abort.abort(t, reason);
    },
  };
  const canceller = new TurnRecovery({ ...seams, abort: slowAbort });
  const pending = canceller.cancel({ turnId: "t1", principal: "alice" });
  // Let the cancel commit while its abort hook waits.
  for (let i = 0; i < 20 && host.store.peekTurn("t1")?.status !== "cancelled"; i++) {
    await Promise.resolve();
  }
  assert.equal(host.store.peekTurn("t1")?.status, "cancelled");
  assert.equal(seams.abort.signalFor("t1").aborted, false);
  let dispatched = 0;
  const w = new TurnRecovery(host.seams());
  const r = await runAsAlice(w, () => dispatched++);
  assert.equal(code(r), "turn-not-running");
  assert.equal(dispatched, 0);
  gate.resolve();
  assert.ok((await pending).ok);
  assert.equal(seams.abort.signalFor("t1").aborted, true);
});

Deno.test("effects: a missing admission seam refuses dispatch before claiming", async () => {
  const { host } = await setup();
  const s = host.store;
  const noFence = delegate(s, { admitDispatch: undefined });
  let dispatched = 0;
  const w = new TurnRecovery({ ...host.seams(), store: noFence });
  const r = await runAsAlice(w, () => dispatched++);
  assert.equal(code(r), "admission-unavailable");
  const noAbort = new TurnRecovery({ store: s, authority: s.authority() });
  assert.equal(
    code(
      await runAsAlice(noAbort, () => dispatched++),
    ),
    "admission-unavailable",
  );
  assert.equal(dispatched, 0);
  assert.equal(s.peekEffect("t1", "e1"), null);
});

Deno.test("effects: a dispatch error returns needs-reconciliation; model retries never redispatch; host reconciles", async () => {
  const { host, worker } = await setup();
  let dispatched = 0;
  const failing = () => {
    dispatched++;
    return Promise.reject(new Error("socket reset"));
  };
  const r = value(
    await runAsAlice(worker, failing),
  );
  assert.deepEqual(r, {
    status: "needs-reconciliation",
    action: "reconcile",
    reason: "dispatch-error",
    detail: "socket reset",
    claimToken: host.store.peekEffect("t1", "e1")?.claimToken,
  });
  assert.match(String(r.status === "needs-reconciliation" && r.claimToken), /^w1#[0-9a-f]{32}$/);
  assert.equal(host.store.peekEffect("t1", "e1")?.state, "unknown");
  assert.equal(host.store.peekTurn("t1")?.status, "needs-reconciliation");
  // The model "retries" from a fresh worker: refused, no dispatch.
  const retry = new TurnRecovery(host.seams());
  const again = value(
    await runAsAlice(retry, failing),
  );
  assert.equal(again.status, "needs-reconciliation");
  assert.equal(again.status === "needs-reconciliation" && again.reason, "outcome-unknown");
  // Other effects cannot be admitted while the turn needs reconciliation.
  assert.equal(
    code(
      await runAsAlice(retry, failing, "e2"),
    ),
    "turn-not-running",
  );
  assert.equal(dispatched, 1);
  // The host verified the outcome in its own idempotency log.
  const rec = await retry.reconcile({
    turnId: "t1",
    effectId: "e1",
    principal: "alice",
    outcome: { ok: true, value: "charged once" },
  });
  assert.ok(rec.ok);
  assert.equal(rec.value.changed, true);
  assert.equal(rec.value.turnStatus, "running");
  assert.equal(rec.value.record.reconciled, true);
  const reused = value(
    await runAsAlice(retry, failing),
  );
  assert.deepEqual(reused, {
    status: "completed",
    outcome: { ok: true, value: "charged once" },
    reused: true,
  });
  assert.equal(dispatched, 1);
  assert.equal(
    code(
      await retry.reconcile({
        turnId: "t1",
        effectId: "e1",
        principal: "alice",
        outcome: {} as never,
      }),
    ),
    "invalid-request",
  );
});

Deno.test("effects: a lost claim acknowledgement is read back; only an unreadable one waits, launching nothing", async () => {
  // Read back as this call's claim: the run goes on, once.
  const { host, worker } = await setup({
    store: { fault: faultPlan({ casEffect: { 0: "ack-lost" } }) },
  });
  let dispatched = 0;
  const r = value(await runAsAlice(worker, () => ++dispatched));
  assert.deepEqual(r, { status: "completed", outcome: { ok: true, value: 1 }, reused: false });
  assert.equal(dispatched, 1);
  assert.equal(host.store.peekEffect("t1", "e1")?.revision, 3);
  // The read-back fails too: wait until the claim's lease ends; nothing dispatched.
  const blind = await setup({
    store: { fault: faultPlan({ casEffect: { 0: "ack-lost" }, readEffect: { 1: "fail" } }) },
  });
  const w = value(await runAsAlice(blind.worker, () => ++dispatched));
  assert.equal(w.status === "needs-reconciliation" && w.action, "wait");
  assert.equal(w.status === "needs-reconciliation" && w.reason, "uncertain-claim-ack");
  assert.equal(dispatched, 1);
  assert.equal(blind.host.store.peekEffect("t1", "e1")?.state, "claimed");
});

Deno.test("effects: a checkpoint-write failure is returned explicitly and never leads to a rerun", async () => {
  const { host, worker } = await setup({
    store: { fault: faultPlan({ casEffect: { 1: "fail" } }) },
  });
  let dispatched = 0;
  const r = await runAsAlice(worker, () => ++dispatched);
  assert.equal(code(r), "checkpoint-write-failed");
  assert.ok(!r.ok);
  assert.deepEqual(r.error.outcome, { ok: true, value: 1 });
  assert.equal(r.error.uncertain, false);
  assert.equal(host.store.peekEffect("t1", "e1")?.state, "admitted");
  const again = value(
    await runAsAlice(worker, () => ++dispatched),
  );
  // The owner's lease is still live: wait it out, never reconcile now.
  assert.equal(again.status === "needs-reconciliation" && again.reason, "in-flight");
  assert.equal(again.status === "needs-reconciliation" && again.action, "wait");
  assert.equal(dispatched, 1);
  // The owner's claim token lets the host store the outcome it holds at once.
  const rec = await worker.reconcile({
    turnId: "t1",
    effectId: "e1",
    principal: "alice",
    outcome: r.error.outcome!,
    claimToken: r.error.claimToken,
  });
  assert.ok(rec.ok && rec.value.changed);
  assert.deepEqual(host.store.peekEffect("t1", "e1")?.outcome, { ok: true, value: 1 });
});

Deno.test("effects: a completion that committed with a lost acknowledgement is read back, not rerun", async () => {
  const { host, worker } = await setup({
    store: { fault: faultPlan({ casEffect: { 1: "ack-lost" } }) },
  });
  let dispatched = 0;
  const r = value(
    await runAsAlice(worker, () => ++dispatched),
  );
  assert.deepEqual(r, { status: "completed", outcome: { ok: true, value: 1 }, reused: false });
  assert.deepEqual(host.store.peekEffect("t1", "e1")?.outcome, { ok: true, value: 1 });
  assert.equal(dispatched, 1);
});

Deno.test("effects: an uncertain admission acknowledgement after launch still stores the result", async () => {
  const { host, worker } = await setup({
    store: { fault: faultPlan({ admitDispatch: { 0: "ack-lost" } }) },
  });
  let dispatched = 0;
  const r = value(
    await runAsAlice(worker, () => ++dispatched),
  );
  assert.equal(r.status, "completed");
  assert.equal(host.store.peekEffect("t1", "e1")?.state, "completed");
  assert.equal(dispatched, 1);
});

Deno.test("effects: an uncertain admission is read back: not admitted → admitted again; unreadable → wait, nothing dispatched", async () => {
  const { worker } = await setup({ store: { fault: faultPlan({ admitDispatch: { 0: "fail" } }) } });
  let dispatched = 0;
  const r = value(await runAsAlice(worker, () => ++dispatched));
  assert.equal(r.status, "completed");
  assert.equal(dispatched, 1);
  // Committed, acknowledgement lost, read-back failed: this call dispatched nothing.
  const lost = await setup({
    store: { fault: faultPlan({ admitDispatch: { 0: "ack-lost" }, readEffect: { 1: "fail" } }) },
  });
  const w = value(await runAsAlice(lost.worker, () => ++dispatched));
  assert.equal(w.status === "needs-reconciliation" && w.reason, "uncertain-admission");
  assert.ok(
    w.status === "needs-reconciliation" && w.action === "wait" &&
      w.claimToken === lost.host.store.peekEffect("t1", "e1")?.claimToken &&
      /^w1#[0-9a-f]{32}$/.test(w.claimToken ?? ""),
  );
  assert.equal(dispatched, 1);
  assert.equal(lost.host.store.peekEffect("t1", "e1")?.state, "admitted");
  // That answer proves nothing ran: the owner's token records not-run at once; then it runs once.
  const nr = await lost.worker.recordNotRun({
    turnId: "t1",
    effectId: "e1",
    principal: "alice",
    claimToken: w.status === "needs-reconciliation" ? w.claimToken : undefined,
    evidence: "uncertain-admission: not dispatched",
  });
  assert.ok(nr.ok && nr.value.record.state === "not-run");
  const again = value(await runAsAlice(lost.worker, () => ++dispatched));
  assert.equal(again.status, "completed");
  assert.equal(dispatched, 2);
});

Deno.test("effects: authority revoked after the worker's check is caught by the fence recheck", async () => {
  const { host } = await setup();
  // A host authority seam that answers from a stale cache.
  const w = new TurnRecovery({ ...host.seams(), authority: { check: () => true } });
  host.revoke("alice", "t1");
  let dispatched = 0;
  const r = await runAsAlice(w, () => dispatched++);
  assert.equal(code(r), "unauthorized");
  assert.equal(dispatched, 0);
  // And the live seam refuses before anything is claimed.
  const live = new TurnRecovery(host.seams());
  assert.equal(
    code(
      await runAsAlice(live, () => dispatched++, "e2"),
    ),
    "unauthorized",
  );
  assert.equal(host.store.peekEffect("t1", "e2"), null);
  assert.equal(code(await live.cancel({ turnId: "t1", principal: "alice" })), "unauthorized");
});

Deno.test("cancel: commits before the abort hook is invoked", async () => {
  const seen: string[] = [];
  const ref: { host?: MemoryRecoveryHost } = {};
  const { host } = await setup({
    onAbort: (t) => seen.push(`abort:${ref.host?.store.peekTurn(t)?.status}`),
  });
  ref.host = host;
  const w = new TurnRecovery(host.seams());
  const r = await w.cancel({ turnId: "t1", principal: "alice", reason: "user pressed stop" });
  assert.ok(r.ok);
  assert.deepEqual(seen, ["abort:cancelled"]);
  assert.equal(r.value.turn.status, "cancelled");
  assert.equal(r.value.turn.reason, "user pressed stop");
  assert.equal(r.value.alreadyCancelled, false);
  // Idempotent: a second cancel re-invokes the hook, still after the commit.
  const again = await w.cancel({ turnId: "t1", principal: "alice" });
  assert.ok(again.ok && again.value.alreadyCancelled);
  assert.deepEqual(seen, ["abort:cancelled", "abort:cancelled"]);
});

Deno.test("cancel: a terminal, missing, unreadable or ever-conflicting turn is refused with its own code; no abort", async () => {
  let aborts = 0;
  const onAbort = () => aborts++;
  const terminal = await setup({ onAbort });
  const t = terminal.host.store.peekTurn("t1")!;
  const { revision: _r, ...rest } = t;
  assert.ok(
    (await terminal.host.store.casTurn("t1", t.revision, { ...rest, status: "completed" })).ok,
  );
  const done = await terminal.worker.cancel({ turnId: "t1", principal: "alice" });
  assert.equal(code(done), "turn-not-running");
  assert.ok(!done.ok && done.error.status === "completed");
  terminal.host.grant("alice", "t9");
  assert.equal(
    code(await terminal.worker.cancel({ turnId: "t9", principal: "alice" })),
    "unknown-turn",
  );
  // readTurn #0 is the cancel's own read (beginTurn does not read).
  const unreadable = await setup({
    store: { fault: faultPlan({ readTurn: { 0: "fail" } }) },
    onAbort,
  });
  const r = await unreadable.worker.cancel({ turnId: "t1", principal: "alice" });
  assert.equal(code(r), "store-unavailable");
  const { host } = await setup({ onAbort });
  const conflicting = delegate(host.store, {
    casTurn: async (id) => ({
      ok: false,
      code: "conflict",
      current: await host.store.readTurn(id),
    }),
  });
  const w = new TurnRecovery({ ...host.seams(), store: conflicting, maxAttempts: 3 });
  assert.equal(code(await w.cancel({ turnId: "t1", principal: "alice" })), "contention");
  assert.equal(host.store.peekTurn("t1")?.status, "running");
  assert.equal(aborts, 0);
});

Deno.test("cancel: a lost cancel acknowledgement is read back; an unconfirmed cancel never aborts", async () => {
  let aborts = 0;
  // casTurn #0 is beginTurn.
  const lost = await setup({
    store: { fault: faultPlan({ casTurn: { 1: "ack-lost" } }) },
    onAbort: () => aborts++,
  });
  const r1 = await lost.worker.cancel({ turnId: "t1", principal: "alice" });
  assert.ok(r1.ok);
  assert.equal(aborts, 1);
  const failed = await setup({
    store: { fault: faultPlan({ casTurn: { 1: "fail" } }) },
    onAbort: () => aborts++,
  });
  const r2 = await failed.worker.cancel({ turnId: "t1", principal: "alice" });
  assert.equal(code(r2), "cancel-uncertain");
  assert.equal(aborts, 1);
  assert.equal(failed.host.store.peekTurn("t1")?.status, "running");
});

Deno.test("cancel: an in-flight effect is aborted through the host signal; its result is retained; the turn stays cancelled", async () => {
  const { host, worker } = await setup();
  const work = deferred<string>();
  let sawAbort = false;
  const running = handled(worker.runEffect({
    turnId: "t1",
    effectId: "e1",
    principal: "alice",
    dispatch: (signal) => {
      signal.addEventListener("abort", () => (sawAbort = true));
      return work.promise;
    },
  }));
  for (let i = 0; i < 50 && host.store.peekEffect("t1", "e1")?.state !== "admitted"; i++) {
    await Promise.resolve();
  }
  assert.equal(host.store.peekEffect("t1", "e1")?.state, "admitted");
  const c = await new TurnRecovery(host.seams()).cancel({ turnId: "t1", principal: "alice" });
  assert.ok(c.ok);
  assert.deepEqual(c.value.inFlight, ["e1"]);
  assert.equal(sawAbort, true);
  // The external call had already happened: its result is retained.
  work.resolve("sent");
  const r = value(await running);
  assert.deepEqual(r, { status: "completed", outcome: { ok: true, value: "sent" }, reused: false });
  assert.equal(host.store.peekEffect("t1", "e1")?.state, "completed");
  assert.equal(host.store.peekTurn("t1")?.status, "cancelled");
});

Deno.test("cancel: an in-flight effect with an unknown outcome still requires reconciliation", async () => {
  const { host, worker } = await setup();
  const running = handled(worker.runEffect({
    turnId: "t1",
    effectId: "e1",
    principal: "alice",
    dispatch: (signal) =>
      new Promise((_, reject) =>
        signal.addEventListener("abort", () => reject(new Error("aborted mid-call")))
      ),
  }));
  for (let i = 0; i < 50 && host.store.peekEffect("t1", "e1")?.state !== "admitted"; i++) {
    await Promise.resolve();
  }
  assert.ok((await worker.cancel({ turnId: "t1", principal: "alice" })).ok);
  const r = value(await running);
  assert.equal(r.status === "needs-reconciliation" && r.reason, "dispatch-error");
  assert.equal(host.store.peekEffect("t1", "e1")?.state, "unknown");
  assert.equal(host.store.peekTurn("t1")?.status, "cancelled");
  const rec = await worker.reconcile({
    turnId: "t1",
    effectId: "e1",
    principal: "alice",
    outcome: { ok: false, error: "not charged" },
  });
  assert.ok(rec.ok);
  assert.equal(rec.value.turnStatus, "cancelled");
  assert.equal(host.store.peekTurn("t1")?.status, "cancelled");
});

Deno.test("resume: restart recovery reuses results, flags in-flight effects, refuses under the replay-only profile", async () => {
  const clock = testClock();
  const { host, worker } = await setup({}, ["e1", "e2", "e3"], {
    now: clock.now,
    renewEveryMs: 0,
  });
  value(
    await runAsAlice(worker, () => "done"),
  );
  // e2 is in flight when the process dies: its work never settles.
  void runAsAlice(worker, () => new Promise(() => {}), "e2");
  for (let i = 0; i < 50 && host.store.peekEffect("t1", "e2")?.state !== "admitted"; i++) {
    await Promise.resolve();
  }
  host.store.setTurnStatus("t1", "interrupted", "host restarted");
  const light = new TurnRecovery({ ...host.seams(), profile: connectionReplayOnlyProfile });
  assert.equal(
    code(await light.resume({ turnId: "t1", principal: "alice" })),
    "restart-recovery-unsupported",
  );
  const fresh = new TurnRecovery({ ...host.seams(), now: clock.now });
  // The dead worker's lease has not ended: its worker may be alive. Nothing is written.
  const early = await fresh.resume({ turnId: "t1", principal: "alice" });
  assert.equal(code(early), "lease-live");
  assert.ok(!early.ok && early.error.retryAt === clock.now() + DEFAULT_LEASE_MS);
  assert.equal(host.store.peekEffect("t1", "e2")?.state, "admitted");
  clock.advance(DEFAULT_LEASE_MS);
  const r = await fresh.resume({ turnId: "t1", principal: "alice" });
  assert.ok(r.ok);
  assert.deepEqual(
    {
      c: r.value.completed,
      u: r.value.needsReconciliation,
      p: r.value.pending,
      s: r.value.turn.status,
    },
    { c: ["e1"], u: ["e2"], p: ["e3"], s: "needs-reconciliation" },
  );
  assert.equal(host.store.peekEffect("t1", "e2")?.reason, "in-flight-at-restart");
  const rec = await fresh.reconcile({
    turnId: "t1",
    effectId: "e2",
    principal: "alice",
    outcome: { ok: true, value: 2 },
  });
  assert.ok(rec.ok && rec.value.turnStatus === "running");
  let dispatched = 0;
  value(
    await runAsAlice(fresh, () => ++dispatched, "e3"),
  );
  assert.equal(dispatched, 1);
});

Deno.test("effects: a fence that admits without launching, or launches twice, is reported", async () => {
  const { host } = await setup();
  const s = host.store;
  const base = {
    readTurn: (t: string) => s.readTurn(t),
    casTurn: s.casTurn.bind(s),
    readEffect: s.readEffect.bind(s),
    casEffect: s.casEffect.bind(s),
  };
  const silent = new TurnRecovery({
    ...host.seams(),
    store: {
      ...base,
      admitDispatch: (r) =>
        Promise.resolve({ admitted: true as const, record: s.peekEffect(r.turnId, r.effectId)! }),
    },
  });
  let dispatched = 0;
  assert.equal(
    code(
      await runAsAlice(silent, () => dispatched++),
    ),
    "admission-contract-violated",
  );
  const twice = new TurnRecovery({
    ...host.seams(),
    store: {
      ...base,
      admitDispatch: async (r) => {
        const out = await s.admitDispatch(r);
        r.launch();
        return out;
      },
    },
  });
  assert.equal(
    code(
      await runAsAlice(twice, () => dispatched++, "e2"),
    ),
    "admission-contract-violated",
  );
  assert.equal(dispatched, 1); // the second launch is never dispatched
});

Deno.test("effects: throwing seams become typed refusals, never exceptions", async () => {
  const boom = () => {
    throw new Error("boom");
  };
  const w = new TurnRecovery({
    store: {
      readTurn: boom,
      casTurn: boom,
      readEffect: boom,
      casEffect: boom,
      admitDispatch: boom,
    },
    authority: { check: () => true },
    abort: { signalFor: boom, abort: boom },
  });
  assert.equal(
    code(await w.runEffect({ turnId: "t", effectId: "e", principal: "p", dispatch: boom })),
    "store-unavailable",
  );
  assert.equal(code(await w.cancel({ turnId: "t", principal: "p" })), "store-unavailable");
  assert.equal(
    code(await w.beginTurn({ conversationId: "c", turnId: "t", principal: "p", effectIds: [] })),
    "checkpoint-write-failed",
  );
  const denied = new TurnRecovery({ store: {} as RecoveryStore, authority: { check: boom } });
  assert.equal(code(await denied.cancel({ turnId: "t", principal: "p" })), "unauthorized");
});

Deno.test("effects: arbitrary requests never throw (property)", async () => {
  const { host } = await setup();
  const w = new TurnRecovery(host.seams());
  await fc.assert(
    fc.asyncProperty(fc.anything(), fc.anything(), async (a, b) => {
      const calls = [
        w.runEffect(a as never),
        w.runEffect({ turnId: a, effectId: b, principal: "alice", dispatch: () => 1 } as never),
        w.cancel(a as never),
        w.reconcile({ turnId: "t1", effectId: "e1", principal: "alice", outcome: a } as never),
        w.beginTurn(a as never),
        w.resume(a as never),
      ];
      for (const r of await Promise.all(calls)) assert.equal(typeof r.ok, "boolean");
    }),
    { numRuns: 2000, seed: 5 },
  );
});
