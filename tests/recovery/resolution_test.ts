// Host resolutions judged against the owner's lease: resume re-checks the
// lease on the record it replaces, reconcile refuses a live claim, and a
// spent claim budget is released by a verified recordNotRun.
import assert from "node:assert/strict";
import {
  MemoryExecutions,
  MemoryRecoveryDatabase,
  MemoryRecoveryStore,
  type RecoveryStore,
  TurnRecovery,
} from "../../recovery.ts";
import { code, deferred, delegate, testClock, value } from "./_helpers.ts";

const req = { turnId: "t1", effectId: "e1", principal: "alice" };

async function base() {
  const clock = testClock();
  const database = new MemoryRecoveryDatabase();
  const admin = new MemoryRecoveryStore({ database });
  await admin.grant("alice", "t1");
  const exec = new MemoryExecutions();
  const worker = (store: RecoveryStore = new MemoryRecoveryStore({ database }), maxClaims = 8) =>
    new TurnRecovery({
      store,
      authority: admin.authority(),
      abort: exec,
      now: clock.now,
      maxClaims,
      renewEveryMs: 0,
    });
  return { clock, database, admin, worker };
}

Deno.test("resume: an owner that renews between resume's read and its CAS is alive: lease-live, nothing marked unknown", async () => {
  const { clock, database, admin, worker } = await base();
  const s = new MemoryRecoveryStore({ database });
  await s.casTurn("t1", 0, {
    turnId: "t1",
    conversationId: "c",
    status: "running",
    effectIds: ["e1"],
  });
  await s.casEffect("t1", "e1", 0, {
    turnId: "t1",
    effectId: "e1",
    state: "claimed",
    claimToken: "owner#x",
    leaseUntil: clock.now() - 1,
    claims: 1,
  });
  await s.admitDispatch({
    turnId: "t1",
    effectId: "e1",
    claimRevision: 1,
    principal: "alice",
    launch: () => {},
  });
  // The lease lapsed a moment ago; the owner renews right after resume read it.
  let renewed = false;
  const racing = delegate(s, {
    casEffect: async (t, e, expected, next) => {
      if (!renewed) {
        renewed = true;
        const { revision, ...draft } = (await s.readEffect(t, e))!;
        await s.casEffect(t, e, revision, { ...draft, leaseUntil: clock.now() + 30_000 });
      }
      return await s.casEffect(t, e, expected, next);
    },
  });
  const r = await worker(racing).resume({ turnId: "t1", principal: "alice" });
  assert.equal(code(r), "lease-live");
  assert.ok(!r.ok && r.error.retryAt === clock.now() + 30_000);
  assert.equal(admin.peekEffect("t1", "e1")?.state, "admitted");
  assert.equal(
    code(await worker().reconcile({ ...req, outcome: { ok: true, value: "guess" } })),
    "lease-live",
  );
});

Deno.test("reconcile: refused lease-live over a live claim that is not yet admitted (its owner may be about to dispatch)", async () => {
  const { database, admin, worker } = await base();
  const gate = deferred();
  const slow = new MemoryRecoveryStore({ database });
  const owner = worker(delegate(slow, {
    admitDispatch: async (r) => {
      await gate.promise;
      return await slow.admitDispatch(r);
    },
  }));
  const host = worker();
  await host.beginTurn({
    conversationId: "c",
    turnId: "t1",
    principal: "alice",
    effectIds: ["e1"],
  });
  let dispatches = 0;
  const run = owner.runEffect({ ...req, dispatch: () => ++dispatches });
  while (admin.peekEffect("t1", "e1")?.state !== "claimed") await Promise.resolve();
  const seen = value(await host.runEffect({ ...req, dispatch: () => ++dispatches }));
  assert.equal(seen.status === "needs-reconciliation" && seen.reason, "claimed-elsewhere");
  const rec = await host.reconcile({ ...req, outcome: { ok: true, value: "guess" } });
  assert.equal(code(rec), "lease-live");
  assert.equal(code(await host.recordNotRun({ ...req, evidence: "x" })), "lease-live");
  gate.resolve();
  const done = value(await run);
  assert.ok(done.status === "completed" && !done.reused && done.outcome.ok);
  assert.equal(dispatches, 1);
});

Deno.test("claim budget: claimers that all died leave the effect claim-limited; resume says so; a verified recordNotRun resets the budget and it runs once", async () => {
  const { clock, database, admin, worker } = await base();
  const host = worker(undefined, 2);
  await host.beginTurn({
    conversationId: "c",
    turnId: "t1",
    principal: "alice",
    effectIds: ["e1"],
  });
  let dispatches = 0;
  for (let i = 0; i < 2; i++) {
    const dying = new MemoryRecoveryStore({
      database,
      fault: (op) => op === "admitDispatch" ? "crash-before" : "none",
    });
    void worker(dying, 2).runEffect({ ...req, dispatch: () => ++dispatches });
    while (admin.peekEffect("t1", "e1")?.claims !== i + 1) {
      await new Promise((r) => setTimeout(r, 0));
    }
    clock.advance(30_001);
  }
  const limited = await host.runEffect({ ...req, dispatch: () => ++dispatches });
  assert.equal(code(limited), "claim-limit");
  assert.match(!limited.ok ? limited.error.message : "", /recordNotRun/);
  const resumed = await host.resume({ turnId: "t1", principal: "alice" });
  assert.ok(resumed.ok);
  assert.deepEqual(resumed.value.pending, []);
  assert.deepEqual(resumed.value.claimLimited, ["e1"]);
  const nr = await host.recordNotRun({ ...req, evidence: "never admitted: no charge" });
  assert.ok(nr.ok && nr.value.changed && nr.value.record.state === "not-run");
  assert.equal(nr.value.record.claims, 0);
  const again = value(await host.runEffect({ ...req, dispatch: () => ++dispatches }));
  assert.equal(again.status, "completed");
  assert.equal(dispatches, 1);
  // A spent budget on a not-run record (not-run cycles) is released the same way.
  const r2 = await host.recordNotRun({ ...req });
  assert.equal(code(r2), "effect-state");
});
