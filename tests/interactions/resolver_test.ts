import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { assertGolden } from "../_helpers/golden.ts";
import {
  InteractionResolver,
  MemoryInteractionStore,
  type StandardSchemaV1,
} from "../../interactions.ts";
import { flawedHarness } from "./_stores.ts";
import { ME, pick, SCHEMA_1, SCHEMA_2, schemas, setup, spyOn } from "./_fixtures.ts";
import { handled } from "../_helpers/settled.ts";

const CARD = {
  prompt: "A or B?",
  presentation: {
    kind: "radio" as const,
    options: [{ id: "a", label: "A" }, { id: "b", label: "B" }],
  },
};

async function opened(card: Record<string, unknown> = CARD) {
  const env = setup();
  const o = await env.worker().open({
    id: "card-1",
    card: card as typeof CARD,
    authority: ME,
    schema: SCHEMA_1,
  });
  assert.ok(o.ok, JSON.stringify(o));
  return env;
}

Deno.test("open: stores a v1 pending record (golden) and a wire snapshot without timeoutMs", async () => {
  const { worker, clock } = setup();
  const o = await worker().open({
    id: "card-1",
    card: { ...CARD, timeoutMs: 60_000 },
    authority: ME,
    schema: SCHEMA_1,
    metadata: { run: "r1" },
  });
  assert.ok(o.ok);
  assert.equal(o.value.record.expiresAt, clock.now() + 60_000);
  assert.equal("timeoutMs" in o.value.snapshot, false);
  assert.equal(o.value.snapshot.correlationId, "card-1");
  assert.equal(o.value.snapshot.createdAt, clock.now());
  await assertGolden("interactions/record_v1_pending.json", o.value.record);
});

Deno.test("open: refuses malformed input, unknown schemas and existing ids", async () => {
  const { worker } = setup();
  const w = worker();
  const bad = [
    { card: CARD, authority: { ...ME, tenantId: "" }, schema: SCHEMA_1 },
    { card: CARD, authority: ME, schema: { id: "pick", revision: 0 } },
    { card: { prompt: 3 }, authority: ME, schema: SCHEMA_1 },
    { card: { prompt: "x", timeoutMs: -1 }, authority: ME, schema: SCHEMA_1 },
    { id: "", card: CARD, authority: ME, schema: SCHEMA_1 },
    { card: CARD, authority: ME, schema: SCHEMA_1, metadata: { k: 5 } },
    null,
  ];
  for (const input of bad) {
    const r = await w.open(input as never);
    assert.ok(!r.ok && r.error.code === "invalid-request", JSON.stringify(input));
  }
  const unknown = await w.open({ card: CARD, authority: ME, schema: { id: "nope", revision: 1 } });
  assert.ok(!unknown.ok && unknown.error.code === "unknown-schema");
  assert.ok((await w.open({ id: "x", card: CARD, authority: ME, schema: SCHEMA_1 })).ok);
  const again = await w.open({ id: "x", card: CARD, authority: ME, schema: SCHEMA_1 });
  assert.ok(!again.ok && again.error.code === "already-exists");
});

Deno.test("answer: validated output is stored with one workflow transition (golden)", async () => {
  const { worker, store } = await opened();
  const r = await worker().answer({
    id: "card-1",
    caller: ME,
    response: pick("card-1", "a"),
    submissionId: "sub-1",
  });
  assert.ok(r.ok);
  assert.equal(r.value.outcome, "committed");
  assert.deepEqual(
    r.value.submission.value,
    { optionId: "A" },
    "schema output (transformed) is stored",
  );
  assert.equal(r.value.record.revision, 2);
  assert.deepEqual(store.transitions("card-1"), [r.value.transition]);
  await assertGolden("interactions/record_v1_submitted.json", r.value.record);
  await assertGolden("interactions/transition_answered.json", r.value.transition);
});

Deno.test("answer: invalid answer → invalid-answer with the validator's issues; stays pending", async () => {
  const { worker, store } = await opened();
  const r = await worker().answer({ id: "card-1", caller: ME, response: pick("card-1", "zzz") });
  assert.ok(!r.ok && r.error.code === "invalid-answer");
  assert.deepEqual(r.error.issues.map((i) => i.path), [["optionId"]]);
  assert.equal(store.peek("card-1")?.revision, 1);
  assert.equal(store.stats.transacts, 0, "validation happens before (outside) the transaction");
  for (
    const response of [null, 5, { action: "submit", correlationId: "card-1", value: [] }, {
      action: "nope",
      correlationId: "card-1",
    }, { action: "submit", correlationId: "other", value: {} }]
  ) {
    const x = await worker().answer({ id: "card-1", caller: ME, response });
    assert.ok(!x.ok && x.error.code === "invalid-answer", JSON.stringify(response));
  }
  assert.equal(store.peek("card-1")?.status, "pending");
});

Deno.test("answer: duplicate carries the stored submission; terminal records stay terminal", async () => {
  const { worker, store } = await opened();
  const first = await worker().answer({
    id: "card-1",
    caller: ME,
    response: pick("card-1", "a"),
    submissionId: "s1",
  });
  assert.ok(first.ok);
  for (
    const response of [pick("card-1", "b"), { action: "decline", correlationId: "card-1" }, {
      action: "cancel",
      correlationId: "card-1",
    }]
  ) {
    const again = await worker().answer({ id: "card-1", caller: ME, response });
    assert.ok(!again.ok && again.error.code === "duplicate");
    assert.deepEqual(again.error.submission, first.value.submission);
  }
  const cancel = await worker().cancel("card-1", ME);
  assert.ok(!cancel.ok && cancel.error.code === "duplicate");
  assert.equal(store.peek("card-1")?.revision, 2);
  assert.equal(store.transitions().length, 1);
});

Deno.test("answer: decline honours allowDecline; client cancel → later answers are cancelled", async () => {
  const strict = await opened({ ...CARD, allowDecline: false });
  const d = await strict.worker().answer({
    id: "card-1",
    caller: ME,
    response: { action: "decline", correlationId: "card-1" },
  });
  assert.ok(!d.ok && d.error.code === "decline-not-allowed");
  const lenient = await opened();
  const ok1 = await lenient.worker().answer({
    id: "card-1",
    caller: ME,
    response: { action: "decline", correlationId: "card-1" },
  });
  assert.ok(
    ok1.ok && ok1.value.record.status === "declined" && ok1.value.transition?.kind === "declined",
  );
  const c = await opened();
  const cancelled = await c.worker().answer({
    id: "card-1",
    caller: ME,
    response: { action: "cancel", correlationId: "card-1" },
    submissionId: "c1",
  });
  assert.ok(cancelled.ok && cancelled.value.record.status === "cancelled");
  const late = await c.worker().answer({ id: "card-1", caller: ME, response: pick("card-1", "a") });
  assert.ok(
    !late.ok && late.error.code === "cancelled" && late.error.submission?.submissionId === "c1",
  );
});

Deno.test("server cancel stores a cancelled transition with the reason", async () => {
  const { worker, store } = await opened();
  const r = await worker().cancel("card-1", ME, { reason: "run cancelled" });
  assert.ok(r.ok);
  assert.equal(r.value.submission.source, "server");
  assert.equal(r.value.submission.reason, "run cancelled");
  assert.equal(store.transitions("card-1")[0].kind, "cancelled");
  const bad = await worker().cancel("card-1", ME, { reason: "x".repeat(1001) });
  assert.ok(!bad.ok && bad.error.code === "invalid-request");
});

Deno.test("expiry: by the store clock, before or during validation", async () => {
  const { worker, clock, store } = await opened({ ...CARD, timeoutMs: 1000 });
  clock.advance(999);
  assert.equal((await worker().read("card-1", ME)).ok, true);
  clock.advance(1);
  const r = await worker().answer({ id: "card-1", caller: ME, response: pick("card-1", "a") });
  assert.ok(!r.ok && r.error.code === "expired" && r.error.expiresAt === clock.now());
  const view = await worker().read("card-1", ME);
  assert.ok(view.ok && view.value.status === "expired" && view.value.openCard === null);
  assert.equal(store.stats.writes, 0);
});

Deno.test("bound authority: the caller, not the body, decides; revocation is rechecked", async () => {
  const { worker, store } = await opened();
  for (
    const k of ["conversationId", "principalId", "tenantId", "customerId", "publicOwnerId"] as const
  ) {
    const r = await worker().answer({
      id: "card-1",
      caller: { ...ME, [k]: "other" },
      response: pick("card-1", "a"),
    });
    assert.ok(!r.ok && r.error.code === "unauthorized", k);
  }
  store.revoke({ tenantId: "tenant-1" });
  const revoked = await worker().answer({
    id: "card-1",
    caller: ME,
    response: pick("card-1", "a"),
  });
  assert.ok(!revoked.ok && revoked.error.code === "unauthorized");
  const read = await worker().read("card-1", ME);
  assert.ok(!read.ok && read.error.code === "unauthorized");
  assert.equal(store.peek("card-1")?.status, "pending");
});

Deno.test("uncertain ack after commit → exactly one read → recovered; never a second write", async () => {
  const env = await opened();
  const spy = spyOn(env.store);
  env.store.loseNextAck();
  const r = await env.worker(spy.store).answer({
    id: "card-1",
    caller: ME,
    response: pick("card-1", "b"),
    submissionId: "s-lost",
  });
  assert.deepEqual(spy.calls, ["read", "transact", "read"]);
  assert.ok(r.ok);
  assert.equal(r.value.outcome, "recovered");
  assert.equal(r.value.submission.submissionId, "s-lost");
  assert.deepEqual(r.value.transition, env.store.transitions("card-1")[0]);
  assert.equal(env.store.stats.writes, 1);
});

Deno.test("uncertain ack without commit → exactly one read → needs-reconciliation, record untouched", async () => {
  const env = await opened();
  const spy = spyOn(env.store);
  env.store.failNextCommit();
  const r = await env.worker(spy.store).answer({
    id: "card-1",
    caller: ME,
    response: pick("card-1", "a"),
    submissionId: "s-x",
  });
  assert.deepEqual(spy.calls, ["read", "transact", "read"]);
  assert.ok(!r.ok && r.error.code === "needs-reconciliation");
  assert.equal(r.error.submissionId, "s-x");
  assert.equal(r.error.observed?.status, "pending");
  assert.equal(env.store.peek("card-1")?.revision, 1);
  assert.equal(env.store.stats.transacts, 1, "the write is never retried");
});

Deno.test("uncertain ack for a loser → needs-reconciliation, the winner's record is unchanged", async () => {
  const env = await opened();
  const gate = Promise.withResolvers<void>();
  const slow: StandardSchemaV1 = {
    "~standard": {
      version: 1,
      vendor: "t",
      validate: async (v) => (await gate.promise, { value: v }),
    },
  };
  const spy = spyOn(env.store);
  const loser = new InteractionResolver({
    store: spy.store,
    schemas: () => slow,
    now: () => env.clock.now(),
  });
  const pending = handled(loser.answer({
    id: "card-1",
    caller: ME,
    response: pick("card-1", "b"),
    submissionId: "loser",
  }));
  const win = await env.worker().answer({
    id: "card-1",
    caller: ME,
    response: pick("card-1", "a"),
    submissionId: "winner",
  });
  assert.ok(win.ok);
  env.store.loseNextAck();
  gate.resolve();
  const r = await pending;
  assert.deepEqual(spy.calls, ["read", "transact", "read"]);
  assert.ok(!r.ok && r.error.code === "needs-reconciliation");
  assert.equal(r.error.observed?.submission?.submissionId, "winner");
  assert.equal(env.store.peek("card-1")?.submission?.submissionId, "winner");
  assert.equal(env.store.transitions().length, 1);
});

Deno.test("uncertain ack and the follow-up read fails → needs-reconciliation without observed", async () => {
  const env = await opened();
  env.store.loseNextAck();
  const spy = spyOn(env.store);
  const s = spy.store;
  // The pre-read succeeds; the follow-up read after the lost ack fails.
  const store = {
    ...s,
    read: (
      id: string,
      c: typeof ME,
    ) => (spy.calls.includes("transact")
      ? (env.store.failNextRead(), s.read(id, c))
      : s.read(id, c)),
  };
  const r = await env.worker(store).answer({
    id: "card-1",
    caller: ME,
    response: pick("card-1", "a"),
  });
  assert.deepEqual(spy.calls, ["read", "transact", "read"]);
  assert.ok(!r.ok && r.error.code === "needs-reconciliation" && r.error.observed === undefined);
  assert.equal(env.store.stats.transacts, 1);
});

Deno.test("store faults on reads and create → store-unavailable, never a throw", async () => {
  const env = await opened();
  env.store.failNextRead(2);
  const a = await env.worker().answer({ id: "card-1", caller: ME, response: pick("card-1", "a") });
  assert.ok(!a.ok && a.error.code === "store-unavailable");
  const v = await env.worker().read("card-1", ME);
  assert.ok(!v.ok && v.error.code === "store-unavailable");
  const broken = {
    ...env.store,
    create: () => Promise.reject(new Error("down")),
    read: env.store.read.bind(env.store),
    transact: env.store.transact.bind(env.store),
  };
  const o = await env.worker(broken).open({ card: CARD, authority: ME, schema: SCHEMA_1 });
  assert.ok(!o.ok && o.error.code === "store-unavailable");
  assert.equal(env.store.peek("card-1")?.status, "pending");
});

Deno.test("metadata and schema changes advance the revision; stale answers are refused", async () => {
  const { worker, store } = await opened();
  const m = await worker().updateMetadata(
    "card-1",
    ME,
    { note: "x", __proto__: "y" } as Record<string, string>,
  );
  assert.ok(m.ok && m.value.record.revision === 2 && m.value.transition === null);
  assert.equal(({} as Record<string, unknown>).y, undefined, "no prototype pollution");
  const del = await worker().updateMetadata("card-1", ME, { note: null });
  assert.ok(del.ok && del.value.record.revision === 3 && !("note" in del.value.record.metadata));
  const s = await worker().changeSchema("card-1", ME, SCHEMA_2);
  assert.ok(s.ok && s.value.record.revision === 4 && s.value.record.schema.revision === 2);
  const c = await worker().answer({ id: "card-1", caller: ME, response: pick("card-1", "c") });
  assert.ok(c.ok, "answers validate against the new schema");
  assert.equal(store.transitions().length, 1);
  const unknown = await worker().changeSchema("card-1", ME, { id: "pick", revision: 9 });
  assert.ok(!unknown.ok && unknown.error.code === "unknown-schema");
  const tooMany = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, "v"]));
  const { worker: w2 } = await opened();
  const big = await w2().updateMetadata("card-1", ME, tooMany);
  assert.ok(!big.ok && big.error.code === "invalid-request");
});

Deno.test("read never advances and rechecks authority", async () => {
  const { worker, store } = await opened();
  for (let i = 0; i < 5; i++) {
    const v = await worker().read("card-1", ME);
    assert.ok(v.ok && v.value.record.revision === 1 && v.value.openCard?.prompt === "A or B?");
  }
  assert.equal(store.stats.transacts + store.stats.writes, 0);
  const nf = await worker().read("missing", ME);
  assert.ok(!nf.ok && nf.error.code === "not-found");
  const other = await worker().read("card-1", { ...ME, customerId: "c2" });
  assert.ok(!other.ok && other.error.code === "unauthorized");
});

Deno.test("elicitation: accept/decline/cancel and malformed results", async () => {
  const a = await opened();
  const acc = await a.worker().resolveElicitation({
    id: "card-1",
    caller: ME,
    result: { action: "accept", content: { optionId: "b" } },
  });
  assert.ok(acc.ok && acc.value.submission.source === "elicitation");
  assert.deepEqual(acc.value.submission.value, { optionId: "B" });
  const dup = await a.worker().resolveElicitation({
    id: "card-1",
    caller: ME,
    result: { action: "decline" },
  });
  assert.ok(!dup.ok && dup.error.code === "duplicate");
  const e = await opened({ ...CARD, allowDecline: false });
  const dec = await e.worker().resolveElicitation({
    id: "card-1",
    caller: ME,
    result: { action: "decline" },
  });
  assert.ok(!dec.ok && dec.error.code === "decline-not-allowed");
  for (
    const result of [
      null,
      { action: "ok" },
      { action: "accept", content: { x: { nested: 1 } } },
      { action: "accept", content: [1] },
      { action: "accept", content: { n: Infinity } },
      { action: "accept", content: { xs: ["a", 1] } },
    ]
  ) {
    const r = await e.worker().resolveElicitation({ id: "card-1", caller: ME, result });
    assert.ok(!r.ok && r.error.code === "invalid-answer", JSON.stringify(result));
  }
  const empty = await e.worker().resolveElicitation({
    id: "card-1",
    caller: ME,
    result: { action: "accept" },
  });
  assert.ok(
    !empty.ok && empty.error.code === "invalid-answer",
    "accept without content validates {}",
  );
  const can = await e.worker().resolveElicitation({
    id: "card-1",
    caller: ME,
    result: { action: "cancel" },
  });
  assert.ok(can.ok && can.value.record.status === "cancelled");
});

Deno.test("answers are bounded and JSON-safe; __proto__ keys stay data", async () => {
  const { store, clock } = await opened();
  const passthrough: StandardSchemaV1 = {
    "~standard": { version: 1, vendor: "t", validate: (v) => ({ value: v }) },
  };
  const w = new InteractionResolver({
    store,
    schemas: () => passthrough,
    now: () => clock.now(),
    maxAnswerBytes: 100,
  });
  const big = await w.answer({
    id: "card-1",
    caller: ME,
    response: { action: "submit", correlationId: "card-1", value: { s: "x".repeat(200) } },
  });
  assert.ok(!big.ok && big.error.code === "invalid-answer");
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const cyc = await w.answer({
    id: "card-1",
    caller: ME,
    response: { action: "submit", correlationId: "card-1", value: cyclic },
  });
  assert.ok(!cyc.ok && cyc.error.code === "invalid-answer");
  const value = JSON.parse('{"__proto__":{"polluted":true},"ok":1}');
  const r = await w.answer({
    id: "card-1",
    caller: ME,
    response: { action: "submit", correlationId: "card-1", value },
  });
  assert.ok(r.ok);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.ok(Object.hasOwn(r.value.submission.value as object, "__proto__"));
});

Deno.test("defence in depth: a store that ignores expiry still cannot make the resolver accept late", async () => {
  const h = flawedHarness("accepts-after-expiry");
  const { store } = await h.connect();
  const gate = Promise.withResolvers<void>();
  const validating = Promise.withResolvers<void>();
  const slow: StandardSchemaV1 = {
    "~standard": {
      version: 1,
      vendor: "t",
      validate: async (v) => (validating.resolve(), await gate.promise, { value: v }),
    },
  };
  const w = new InteractionResolver({ store, schemas: () => slow, now: () => h.now() as number });
  await w.open({ id: "c", card: { prompt: "?", timeoutMs: 10 }, authority: ME, schema: SCHEMA_1 });
  const p = handled(w.answer({
    id: "c",
    caller: ME,
    response: { action: "submit", correlationId: "c", value: {} },
  }));
  await validating.promise; // a barrier: the answer is inside validation
  h.advanceClock(10);
  gate.resolve();
  const r = await p;
  assert.ok(!r.ok && r.error.code === "expired");
  assert.equal((await h.transitions("c")).length, 0);
});

Deno.test("property: answer and resolveElicitation never throw on arbitrary input", async () => {
  const { worker, store } = await opened();
  // Arbitrary values, and well-shaped ones that reach validation and the store.
  const response = fc.oneof(
    fc.anything(),
    fc.record({
      action: fc.constantFrom("submit", "decline", "cancel", "other"),
      correlationId: fc.constantFrom("card-1", "card-2"),
      value: fc.oneof(fc.anything(), fc.record({ optionId: fc.constantFrom("a", "b", "c") })),
    }),
  );
  const result = fc.oneof(
    fc.anything(),
    fc.record({
      action: fc.constantFrom("accept", "decline", "cancel"),
      content: fc.oneof(fc.anything(), fc.record({ optionId: fc.constantFrom("a", "z") })),
    }),
  );
  const w = worker();
  await fc.assert(
    fc.asyncProperty(response, result, async (response, result) => {
      const a = await w.answer({ id: "card-1", caller: ME, response: response as never });
      assert.equal(typeof a.ok, "boolean");
      const b = await w.resolveElicitation({ id: "card-1", caller: ME, result: result as never });
      assert.equal(typeof b.ok, "boolean");
      const c = await w.answer({ id: response as never, caller: result as never, response });
      assert.equal(typeof c.ok, "boolean");
    }),
    { numRuns: 1000 },
  );
  assert.equal(
    store.stats.writes,
    1,
    "exactly one answer commits (the generators reach the store)",
  );
});

Deno.test("answers: a validated output that is not JSON data is refused, never converted", async () => {
  const passthrough: StandardSchemaV1 = {
    "~standard": { version: 1, vendor: "t", validate: (v) => ({ value: v }) },
  };
  const hole: unknown[] = [1];
  hole[2] = 3;
  class Point {
    x = 1;
  }
  const refused: unknown[] = [
    { n: NaN },
    { n: Infinity },
    { n: -Infinity },
    { d: new Date(0) },
    { m: new Map([["a", 1]]) },
    { p: new Point() },
    { f: () => 1 },
    { b: 1n },
    { xs: [undefined] },
    { xs: hole },
  ];
  for (const value of refused) {
    const { store, clock } = await opened();
    const w = new InteractionResolver({
      store,
      schemas: () => passthrough,
      now: () => clock.now(),
    });
    const r = await w.answer({
      id: "card-1",
      caller: ME,
      response: { action: "submit", correlationId: "card-1", value },
    });
    assert.ok(!r.ok && r.error.code === "invalid-answer", String(Object.keys(value as object)));
    assert.equal(store.peek("card-1")?.status, "pending");
  }
  // Plain data passes; an undefined property counts as absent; -0 is a number.
  const { store, clock } = await opened();
  const w = new InteractionResolver({ store, schemas: () => passthrough, now: () => clock.now() });
  const r = await w.answer({
    id: "card-1",
    caller: ME,
    response: {
      action: "submit",
      correlationId: "card-1",
      value: { a: [1, "x", null, true, { b: -0 }], gone: undefined },
    },
  });
  assert.ok(r.ok);
  assert.deepEqual(r.value.submission.value, { a: [1, "x", null, true, { b: 0 }] });
});

Deno.test("answers: maxAnswerBytes counts UTF-8 bytes and depth is bounded", async () => {
  const passthrough: StandardSchemaV1 = {
    "~standard": { version: 1, vendor: "t", validate: (v) => ({ value: v }) },
  };
  const send = async (value: unknown, maxAnswerBytes: number) => {
    const { store, clock } = await opened();
    const w = new InteractionResolver({
      store,
      schemas: () => passthrough,
      now: () => clock.now(),
      maxAnswerBytes,
    });
    return w.answer({
      id: "card-1",
      caller: ME,
      response: { action: "submit", correlationId: "card-1", value },
    });
  };
  // {"s":"éééé"} is 12 UTF-16 units but 16 UTF-8 bytes.
  assert.equal((await send({ s: "éééé" }, 16)).ok, true);
  const over = await send({ s: "éééé" }, 15);
  assert.ok(!over.ok && over.error.code === "invalid-answer");
  // The answer object is depth 0; 63 nested arrays reach depth 63.
  let deep: unknown = 1;
  for (let i = 0; i < 63; i++) deep = [deep];
  assert.equal((await send({ d: deep }, 65_536)).ok, true);
  const tooDeep = await send({ d: [deep] }, 65_536);
  assert.ok(!tooDeep.ok && tooDeep.error.code === "invalid-answer");
});

Deno.test("expiry: exact boundary ms, and a store clock stepping back never re-opens an expired card", async () => {
  const E = 1_700_000_000_000; // epoch ms (a clock below 1e11 is refused as seconds)
  let t = E;
  const store = new MemoryInteractionStore({ now: () => t });
  const w = new InteractionResolver({ store, schemas, now: () => t });
  assert.ok(
    (await w.open({
      id: "c",
      card: { prompt: "?", timeoutMs: 10 },
      authority: ME,
      schema: SCHEMA_1,
    }))
      .ok,
  );
  t = E + 9; // one ms before the boundary: still open
  const before = await w.read("c", ME);
  assert.ok(before.ok && before.value.status === "pending");
  t = E + 10; // exactly at expiresAt: expired
  const at = await w.answer({ id: "c", caller: ME, response: pick("c", "a") });
  assert.ok(!at.ok && at.error.code === "expired" && at.error.expiresAt === E + 10);
  t = E + 5; // NTP steps the clock back
  const back = await w.answer({ id: "c", caller: ME, response: pick("c", "a") });
  assert.ok(!back.ok && back.error.code === "expired", JSON.stringify(back));
  const view = await w.read("c", ME);
  assert.ok(view.ok && view.value.status === "expired" && view.value.now === E + 10);
  t = Number.NaN; // a broken clock reading keeps the last good time
  assert.equal(store.now(), E + 10);
  assert.equal(store.stats.writes, 0);
});

Deno.test("open: a non-finite resolver clock is refused, not stored as null", async () => {
  const { store } = setup();
  const w = new InteractionResolver({ store, schemas, now: () => Number.NaN });
  const r = await w.open({ id: "n", card: { prompt: "?" }, authority: ME, schema: SCHEMA_1 });
  assert.ok(!r.ok && r.error.code === "invalid-request");
  assert.equal(store.peek("n"), undefined);
});

Deno.test("property: every resolver method returns a typed result for arbitrary arguments", async () => {
  const { worker, store } = await opened();
  const w = worker();
  const any = fc.anything({
    withObjectString: true,
    withNullPrototype: true,
    withBigInt: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withSparseArray: true,
    withBoxedValues: true,
  });
  await fc.assert(
    fc.asyncProperty(any, any, any, async (a, b, c) => {
      const calls = [
        () => w.open(a as never),
        () => w.open({ card: a, authority: ME, schema: SCHEMA_1, metadata: b } as never),
        () => w.answer(a as never),
        () => w.resolveElicitation(a as never),
        () => w.cancel("card-1", ME, a as never),
        () => w.cancel(a as never, b as never, c as never),
        () => w.changeSchema("card-1", ME, a as never),
        () => w.updateMetadata("card-1", ME, a as never),
        () => w.updateMetadata(a as never, b as never, c as never),
        () => w.read(a as never, b as never),
      ];
      for (const call of calls) {
        const r = await call();
        assert.equal(typeof r.ok, "boolean");
        if (!r.ok) assert.equal(typeof r.error.code, "string");
      }
    }),
    { numRuns: 500 },
  );
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(store.peek("card-1")?.authority.principalId, ME.principalId);
});
