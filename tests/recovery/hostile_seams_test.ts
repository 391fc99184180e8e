// Host seams that break their contracts in ways a real adapter can: a fence
// that calls launch after it settled, records this version cannot use, and
// malformed answers. TurnRecovery must never dispatch because of them and
// never throw.
import assert from "node:assert/strict";
import type { Result } from "../../src/result.ts";
import {
  MemoryRecoveryHost,
  type RecoveryError,
  type RecoveryStore,
  TurnRecovery,
} from "../../recovery.ts";
import { code, delegate, faultPlan, runAsAlice, setup, value } from "./_helpers.ts";

const later = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

Deno.test("hostile fence: launch called after a refused admission settled never dispatches", async () => {
  const { host } = await setup();
  let launched: (() => void) | undefined;
  const w = new TurnRecovery({
    ...host.seams(),
    store: delegate(host.store, {
      admitDispatch: (r) => {
        launched = r.launch;
        return Promise.resolve({
          admitted: false,
          reason: "turn-not-running",
          status: "cancelled",
        });
      },
    }),
  });
  let dispatched = 0;
  const r = await runAsAlice(w, () => ++dispatched);
  assert.equal(code(r), "turn-not-running");
  assert.ok(launched);
  launched(); // the host's fence calls launch late, outside the fence
  await later();
  assert.equal(dispatched, 0);
});

Deno.test("hostile fence: admitted without launching, then launching late, never dispatches", async () => {
  const { host } = await setup();
  const s = host.store;
  const w = new TurnRecovery({
    ...host.seams(),
    store: delegate(s, {
      admitDispatch: (r) => {
        setTimeout(() => r.launch(), 1);
        return Promise.resolve({ admitted: true, record: s.peekEffect(r.turnId, r.effectId)! });
      },
    }),
  });
  let dispatched = 0;
  const r = await runAsAlice(w, () => ++dispatched);
  assert.equal(code(r), "admission-contract-violated");
  await later();
  assert.equal(dispatched, 0);
});

Deno.test("hostile fence: launch after an uncertain (thrown) admission never dispatches", async () => {
  const { host } = await setup();
  const w = new TurnRecovery({
    ...host.seams(),
    maxAttempts: 3,
    backoff: { baseMs: 0 },
    store: delegate(host.store, {
      admitDispatch: (r) => {
        setTimeout(() => r.launch(), 1);
        return Promise.reject(new Error("connection reset"));
      },
    }),
  });
  let dispatched = 0;
  const r = await runAsAlice(w, () => ++dispatched);
  // Each uncertain admission is read back (still claimed: nothing admitted) and retried, then given up.
  assert.equal(code(r), "contention");
  await later();
  assert.equal(dispatched, 0);
});

Deno.test("stored records: a completion without an outcome, or an unknown state, is never re-run", async () => {
  for (
    const [draft, detail] of [
      [{ state: "completed" }, "stored effect state 'completed' has no usable outcome"],
      [
        { state: "completed", outcome: { ok: "yes" } },
        "stored effect state 'completed' has no usable outcome",
      ],
      [
        { state: "done", outcome: { ok: true, value: 1 } },
        "stored effect state 'done' has no usable outcome",
      ],
    ] as const
  ) {
    const { host, worker } = await setup();
    const w = await host.store.casEffect("t1", "e1", 0, {
      turnId: "t1",
      effectId: "e1",
      claimToken: "old-worker",
      ...draft,
    } as never);
    assert.ok(w.ok);
    let dispatched = 0;
    const r = value(
      await runAsAlice(worker, () => ++dispatched),
    );
    assert.deepEqual(r, {
      status: "needs-reconciliation",
      action: "reconcile",
      reason: "outcome-unknown",
      detail,
    });
    assert.equal(dispatched, 0);
    assert.equal(host.store.peekEffect("t1", "e1")?.revision, 1, "nothing claimed over it");
    // Cancel reports it as in flight; reconcile repairs it; then it is reused.
    const c = await worker.cancel({ turnId: "t1", principal: "alice" });
    assert.ok(c.ok);
    assert.deepEqual(c.value.inFlight, ["e1"]);
    const rec = await worker.reconcile({
      turnId: "t1",
      effectId: "e1",
      principal: "alice",
      outcome: { ok: true, value: "verified" },
    });
    assert.ok(rec.ok && rec.value.changed);
    assert.deepEqual(host.store.peekEffect("t1", "e1")?.outcome, { ok: true, value: "verified" });
  }
});

Deno.test("stored records: a record of another effect or turn is not trusted", async () => {
  const { host, worker } = await setup();
  const e2 = value(
    await runAsAlice(worker, () => 2, "e2"),
  );
  assert.equal(e2.status, "completed");
  const s = host.store;
  // A buggy adapter answers every effect read with e2's row.
  const crossed: RecoveryStore = {
    ...delegate(s),
    readEffect: (t) => s.readEffect(t, "e2"),
  };
  let dispatched = 0;
  const w = new TurnRecovery({ ...host.seams(), store: crossed });
  const r = await runAsAlice(w, () => ++dispatched);
  assert.equal(code(r), "store-unavailable");
  assert.equal(dispatched, 0);
  const other: RecoveryStore = {
    ...delegate(s),
    readTurn: () => s.readTurn("t1"),
  };
  host.grant("alice", "t9");
  const w9 = new TurnRecovery({ ...host.seams(), store: other });
  assert.equal(
    code(
      await w9.runEffect({
        turnId: "t9",
        effectId: "e2",
        principal: "alice",
        dispatch: () => ++dispatched,
      }),
    ),
    "store-unavailable",
  );
  assert.equal(dispatched, 0);
});

Deno.test("malformed store answers become typed refusals, never exceptions", async () => {
  const { host } = await setup();
  const s = host.store;
  const base = delegate(s);
  const variants: Record<string, RecoveryStore> = {
    "turn without effectIds": {
      ...base,
      readTurn: () => Promise.resolve({ turnId: "t1" } as never),
    },
    "turn CAS answers ok without a record": {
      ...base,
      casTurn: () => Promise.resolve({ ok: true } as never),
    },
    "admission answers admitted without a record": {
      ...base,
      admitDispatch: (r) => {
        r.launch();
        return Promise.resolve({ admitted: true } as never);
      },
    },
    "effect read answers a string": {
      ...base,
      readEffect: () => Promise.resolve("completed" as never),
    },
  };
  for (const [name, store] of Object.entries(variants)) {
    const w = new TurnRecovery({ ...host.seams(), store });
    const calls = [
      () => runAsAlice(w, () => 1),
      () => w.cancel({ turnId: "t1", principal: "alice" }),
      () =>
        w.reconcile({
          turnId: "t1",
          effectId: "e2",
          principal: "alice",
          outcome: { ok: true, value: 1 },
        }),
      () => w.resume({ turnId: "t1", principal: "alice" }),
      () => w.inspect("t1"),
    ];
    for (const call of calls) {
      const r = await call();
      assert.equal(typeof r.ok, "boolean", name);
    }
  }
});

Deno.test("unprintable errors (null-prototype objects, throwing message getters) never escape", async () => {
  const { host, worker } = await setup();
  const r = value(
    await runAsAlice(worker, () => Promise.reject(Object.create(null))),
  );
  assert.deepEqual(r, {
    status: "needs-reconciliation",
    action: "reconcile",
    reason: "dispatch-error",
    detail: "an unprintable value",
    claimToken: host.store.peekEffect("t1", "e1")?.claimToken,
  });
  assert.equal(host.store.peekEffect("t1", "e1")?.state, "unknown");
  const evil = new Error("x");
  Object.defineProperty(evil, "message", {
    get() {
      throw new Error("getter");
    },
  });
  const huge = new Error("y".repeat(1_000_000));
  for (const thrown of [Object.create(null), evil, huge]) {
    const w = new TurnRecovery({
      ...host.seams(),
      store: {
        ...delegate(host.store),
        readTurn: () => Promise.reject(thrown),
      },
    });
    const c = await w.cancel({ turnId: "t1", principal: "alice" });
    assert.equal(code(c), "store-unavailable");
    assert.ok(!c.ok && c.error.message.length <= 1000);
  }
});

Deno.test("a lost acknowledgement of a turn status change is read back (resume, reconcile)", async () => {
  // casTurn #0 is beginTurn, #1 the resume's status change: its ack is lost.
  const host = new MemoryRecoveryHost({
    store: { fault: faultPlan({ casTurn: { 1: "ack-lost", 3: "ack-lost" } }) },
  });
  host.grant("alice", "t1");
  const w = new TurnRecovery(host.seams());
  assert.ok(
    (await w.beginTurn({
      conversationId: "c",
      turnId: "t1",
      principal: "alice",
      effectIds: ["e1"],
    }))
      .ok,
  );
  host.store.setTurnStatus("t1", "interrupted", "restart");
  const r = await w.resume({ turnId: "t1", principal: "alice" });
  assert.ok(r.ok, r.ok ? "" : r.error.code);
  assert.equal(r.value.turn.status, "running");
  // A dispatch error moves the turn to needs-reconciliation (casTurn #2);
  // reconciling reopens it (casTurn #3, ack lost): the answer says running.
  value(
    await runAsAlice(w, () => Promise.reject(new Error("timeout"))),
  );
  assert.equal(host.store.peekTurn("t1")?.status, "needs-reconciliation");
  const rec = await w.reconcile({
    turnId: "t1",
    effectId: "e1",
    principal: "alice",
    outcome: { ok: true, value: 1 },
  });
  assert.ok(rec.ok);
  assert.equal(host.store.peekTurn("t1")?.status, "running");
  assert.equal(rec.value.turnStatus, "running");
});

Deno.test("a conflict answer without `current` is retried, not taken for a lost ack", async () => {
  const { host } = await setup();
  const s = host.store;
  let first = true;
  const terse: RecoveryStore = {
    ...delegate(s),
    casEffect: (...a) => {
      if (first) {
        first = false;
        return Promise.resolve({ ok: false, code: "conflict" } as never);
      }
      return s.casEffect(...a);
    },
  };
  const w = new TurnRecovery({ ...host.seams(), store: terse });
  const r = value(
    await runAsAlice(w, () => "ok"),
  );
  assert.deepEqual(r, { status: "completed", outcome: { ok: true, value: "ok" }, reused: false });
});

Deno.test("long reasons and error texts are cut without splitting a surrogate pair", async () => {
  const { host, worker } = await setup();
  const reason = "a".repeat(999) + "\u{1F600}" + "tail";
  const c = await worker.cancel({ turnId: "t1", principal: "alice", reason });
  assert.ok(c.ok);
  assert.equal(c.value.turn.reason, "a".repeat(999));
  assert.equal(host.store.peekTurn("t1")?.reason, "a".repeat(999));
  const w = new TurnRecovery({
    ...host.seams(),
    store: {
      ...delegate(host.store),
      readTurn: () => Promise.reject(new Error("b".repeat(999) + "\u{1F600}")),
    },
  });
  const r = await w.cancel({ turnId: "t1", principal: "alice" });
  assert.ok(!r.ok);
  assert.equal(r.error.message, "b".repeat(999));
});

Deno.test("the constructor never throws; missing seams and malformed profiles fail closed", async () => {
  for (const options of [undefined, null, 5, {}, { store: null }, { store: 5, authority: 5 }]) {
    const w = new TurnRecovery(options as never);
    const calls = [
      w.runEffect({ turnId: "t", effectId: "e", principal: "p", dispatch: () => 1 }),
      w.cancel({ turnId: "t", principal: "p" }),
      w.beginTurn({ conversationId: "c", turnId: "t", principal: "p", effectIds: [] }),
      w.reconcile({ turnId: "t", effectId: "e", principal: "p", outcome: { ok: true, value: 1 } }),
      w.resume({ turnId: "t", principal: "p" }),
      w.inspect("t"),
    ];
    for (const r of await Promise.all(calls)) assert.equal(r.ok, false);
  }
  const { host } = await setup();
  const bad = new TurnRecovery({ ...host.seams(), profile: { name: "x" } as never });
  assert.equal(bad.profile.capabilities.interruptedTurnRecovery, false);
  assert.equal(
    code(await bad.resume({ turnId: "t1", principal: "alice" })),
    "restart-recovery-unsupported",
  );
});

Deno.test("inspect refuses a turn id that is not a non-empty id without asking the store", async () => {
  const { host, worker } = await setup();
  let reads = 0;
  const counted = delegate(host.store, { readTurn: (t) => (reads++, host.store.readTurn(t)) });
  const w = new TurnRecovery({ ...host.seams(), store: counted });
  for (const id of ["", "x".repeat(513), 5, null, undefined]) {
    assert.equal(code(await w.inspect(id as never)), "invalid-request");
  }
  assert.equal(reads, 0);
  const snap = await worker.inspect("t1");
  assert.ok(snap.ok && snap.value.turn.turnId === "t1" && snap.value.effects.length === 2);
});

Deno.test("hostile requests: throwing getters and proxies are invalid-request, never a rejection", async () => {
  const { host, worker } = await setup();
  host.grant("alice", "t2");
  const boom = (): never => {
    throw new Error("getter");
  };
  const throwing = new Proxy({}, { get: boom, has: boom, ownKeys: boom });
  const calls: Promise<unknown>[] = [
    worker.beginTurn(throwing as never),
    worker.runEffect(throwing as never),
    worker.cancel(throwing as never),
    worker.reconcile(throwing as never),
    worker.resume(throwing as never),
    worker.beginTurn({
      conversationId: "c",
      turnId: "t2",
      principal: "alice",
      effectIds: new Proxy(["e1"], { get: (t, k) => (k === "0" ? boom() : Reflect.get(t, k)) }),
    }),
    worker.reconcile({
      turnId: "t1",
      effectId: "e1",
      principal: "alice",
      outcome: {
        get ok(): true {
          return boom();
        },
        value: 1,
      },
    }),
  ];
  for (const r of await Promise.all(calls)) {
    assert.equal(code(r as Result<unknown, RecoveryError>), "invalid-request");
  }
  // A cancel whose reason getter throws is refused too (and nothing is cancelled).
  const c = await worker.cancel({
    turnId: "t1",
    principal: "alice",
    get reason(): string {
      return boom();
    },
  });
  assert.equal(code(c), "invalid-request");
  assert.equal(host.store.peekTurn("t1")?.status, "running");
  // An effectIds array that answers differently on a second read: the validated copy is stored.
  let reads = 0;
  const fickle = new Proxy(["e1"], {
    get: (t, k) => (k === "0" ? (reads++ === 0 ? "e1" : "") : Reflect.get(t, k)),
  });
  const b = await worker.beginTurn({
    conversationId: "c",
    turnId: "t2",
    principal: "alice",
    effectIds: fickle,
  });
  assert.ok(b.ok);
  assert.deepEqual(host.store.peekTurn("t2")?.effectIds, ["e1"]);
  assert.equal(reads, 1);
});

Deno.test("a JSON store that drops `value: undefined` still reuses the result (never re-runs)", async () => {
  const { host } = await setup();
  const s = host.store;
  const json = <T>(x: T): T => (x === null ? x : JSON.parse(JSON.stringify(x)));
  const jsonStore: RecoveryStore = {
    readTurn: async (t) => json(await s.readTurn(t)),
    casTurn: async (...a) => json(await s.casTurn(...a)),
    readEffect: async (...a) => json(await s.readEffect(...a)),
    casEffect: async (t, e, r, n) => json(await s.casEffect(t, e, r, json(n))),
    admitDispatch: async (r) => json(await s.admitDispatch(r)),
  };
  const w = new TurnRecovery({ ...host.seams(), store: jsonStore });
  let dispatched = 0;
  const run = () =>
    w.runEffect({
      turnId: "t1",
      effectId: "e1",
      principal: "alice",
      dispatch: () => {
        dispatched++;
      },
    });
  const first = value(await run());
  assert.equal(first.status, "completed");
  const again = value(await run());
  assert.deepEqual(again, { status: "completed", outcome: { ok: true }, reused: true });
  assert.equal(dispatched, 1);
});
