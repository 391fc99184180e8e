/**
 * A host store that breaks its contract (calls back twice or never, answers
 * with garbage, returns another principal's record) must not crash the
 * resolver, make it report a state that is not stored, or advance twice.
 */
import assert from "node:assert/strict";
import {
  type InteractionRecordV1,
  type InteractionStore,
  type MemoryInteractionStore,
  parseElicitationResult,
  type TransactCallback,
} from "../../interactions.ts";
import { ok } from "../../src/result.ts";
import { ME, pick, SCHEMA_1, setup } from "./_fixtures.ts";

async function opened() {
  const env = setup();
  const o = await env.worker().open({
    id: "card-1",
    card: { prompt: "?" },
    authority: ME,
    schema: SCHEMA_1,
  });
  assert.ok(o.ok);
  return env;
}

/** The reference store with `transact` (and optionally `read`/`create`) replaced. */
function breach(
  s: MemoryInteractionStore,
  over: Partial<InteractionStore>,
): InteractionStore {
  return {
    create: over.create ?? ((r) => s.create(r)),
    read: over.read ?? ((id, c) => s.read(id, c)),
    transact: over.transact ?? ((q, f) => s.transact(q, f)),
  };
}

Deno.test("breach: a callback invoked twice in one transaction never writes twice", async () => {
  const { store, worker } = await opened();
  let second: unknown;
  const bad = breach(store, {
    // A store that calls back again and persists the second decision.
    transact: (q, f) =>
      store.transact(q, (cur, ctx) => {
        f(cur, ctx);
        second = f(cur, ctx);
        return second as ReturnType<typeof f>;
      }),
  });
  const r = await worker(bad).answer({
    id: "card-1",
    caller: ME,
    response: pick("card-1", "a"),
    submissionId: "s1",
  });
  assert.deepEqual(second, { kind: "read", result: null }, "the second invocation writes nothing");
  assert.ok(!r.ok && r.error.code === "needs-reconciliation", JSON.stringify(r));
  assert.equal(store.peek("card-1")?.status, "pending");
  assert.equal(store.stats.writes, 0);
});

Deno.test("breach: transact run twice (retried by the store) → recovered once, one write", async () => {
  const { store, worker } = await opened();
  const bad = breach(store, {
    transact: async (q, f) => {
      await store.transact(q, f);
      return store.transact(q, f); // fenced: already resolved
    },
  });
  const r = await worker(bad).answer({
    id: "card-1",
    caller: ME,
    response: pick("card-1", "a"),
    submissionId: "s1",
  });
  assert.ok(r.ok && r.value.outcome === "recovered", JSON.stringify(r));
  assert.equal(store.stats.writes, 1);
  assert.equal(store.transitions("card-1").length, 1);
});

Deno.test("breach: ok without calling back is never reported as committed", async () => {
  const { store, worker } = await opened();
  const current = store.peek("card-1") as InteractionRecordV1;
  for (
    const answer of [
      { ok: true, value: { result: null, record: current, transition: null } },
      { ok: true, value: { record: undefined } },
      { ok: true },
    ]
  ) {
    const bad = breach(store, { transact: () => Promise.resolve(answer as never) });
    const r = await worker(bad).answer({
      id: "card-1",
      caller: ME,
      response: pick("card-1", "a"),
      submissionId: "s1",
    });
    assert.ok(!r.ok && r.error.code === "needs-reconciliation", JSON.stringify(r));
    assert.equal(r.error.observed?.status, "pending");
  }
});

Deno.test("breach: a store result that drops the callback's refusal is not taken as a commit", async () => {
  const env = setup();
  await env.worker().open({
    id: "card-1",
    card: { prompt: "?", timeoutMs: 1000 },
    authority: ME,
    schema: SCHEMA_1,
  });
  const { store, worker } = env;
  const bad = breach(store, {
    // The callback sees a later clock than the fence (the resolver refuses
    // `expired` as a read), and the store hands back `result: null`.
    transact: async <T>(q: Parameters<InteractionStore["transact"]>[0], f: TransactCallback<T>) => {
      const o = await store.transact(q, (cur, ctx) => f(cur, { ...ctx, now: ctx.now + 5000 }));
      return o.ok ? ok({ ...o.value, result: null as T }) : o;
    },
  });
  const r = await worker(bad).answer({ id: "card-1", caller: ME, response: pick("card-1", "a") });
  assert.ok(!r.ok && r.error.code === "expired", JSON.stringify(r));
  assert.equal(store.stats.writes, 0);
});

Deno.test("breach: garbage answers from transact, read and create are typed refusals", async () => {
  const { store, worker } = await opened();
  const garbage: unknown[] = [
    undefined,
    null,
    5,
    { ok: false },
    { ok: false, error: { code: "weird", message: "" } },
    { ok: false, error: { code: "expired", message: "", current: store.peek("card-1") } },
    { ok: false, error: { code: "resolved", message: "", current: store.peek("card-1") } },
  ];
  for (const g of garbage) {
    const bad = breach(store, { transact: () => Promise.resolve(g as never) });
    const r = await worker(bad).answer({ id: "card-1", caller: ME, response: pick("card-1", "a") });
    assert.ok(!r.ok && r.error.code === "needs-reconciliation", JSON.stringify([g, r]));
    const rd = await worker(breach(store, { read: () => Promise.resolve(g as never) }))
      .read("card-1", ME);
    assert.ok(!rd.ok && rd.error.code === "store-unavailable", JSON.stringify([g, rd]));
    const o = await worker(breach(store, { create: () => Promise.resolve(g as never) })).open({
      card: { prompt: "?" },
      authority: ME,
      schema: SCHEMA_1,
    });
    assert.ok(!o.ok && o.error.code === "store-unavailable", JSON.stringify([g, o]));
  }
  assert.equal(store.peek("card-1")?.status, "pending");
});

Deno.test("breach: a read whose record has an array card, metadata or submission is store-unavailable", async () => {
  const { store, worker } = await opened();
  const pending = store.peek("card-1")!;
  const bent: unknown[] = [
    { ...pending, card: ["?"] },
    { ...pending, metadata: [] },
    { ...pending, status: "cancelled", submission: Object.assign([], { submissionId: "s" }) },
  ];
  for (const record of bent) {
    const bad = breach(store, {
      read: () => Promise.resolve({ ok: true, record, now: store.now() } as never),
    });
    const r = await worker(bad).read("card-1", ME);
    assert.ok(!r.ok && r.error.code === "store-unavailable", JSON.stringify([record, r]));
  }
});

Deno.test("breach: a read that returns another authority's record is unauthorized", async () => {
  const { store, worker } = await opened();
  const other = { ...ME, principalId: "someone-else" };
  const leaky = breach(store, {
    read: (id) => Promise.resolve({ ok: true, record: store.peek(id)!, now: store.now() }),
  });
  const r = await worker(leaky).read("card-1", other);
  assert.ok(!r.ok && r.error.code === "unauthorized", JSON.stringify(r));
});

Deno.test("lost ack on a metadata change is recognised when the database reorders keys", async () => {
  const { store, worker } = await opened();
  await worker().updateMetadata("card-1", ME, { b: "1", a: "2" });
  // A jsonb column hands keys back in its own order.
  const reordering = breach(store, {
    read: async (id, c) => {
      const r = await store.read(id, c);
      if (!r.ok) return r;
      const m = r.record.metadata;
      const sorted = Object.fromEntries(Object.keys(m).sort().map((k) => [k, m[k]]));
      return { ...r, record: { ...r.record, metadata: sorted } };
    },
  });
  store.loseNextAck();
  const r = await worker(reordering).updateMetadata("card-1", ME, { A: "3" });
  assert.ok(r.ok && r.value.outcome === "recovered", JSON.stringify(r));
  assert.equal(store.stats.writes, 2);
});

Deno.test("hostile input: throwing getters and proxy traps are refused invalid-request, never thrown", async () => {
  const { worker } = await opened();
  const w = worker();
  const boom = new Proxy({}, {
    get() {
      throw new Error("boom");
    },
    getPrototypeOf() {
      throw new Error("boom");
    },
    ownKeys() {
      throw new Error("boom");
    },
  });
  const getter = (obj: Record<string, unknown>, key: string) =>
    Object.defineProperty({ ...obj }, key, {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
  const answer = { id: "card-1", caller: ME, response: pick("card-1", "a") };
  const calls: [string, () => Promise<unknown>][] = [
    ["answer(proxy)", () => w.answer(boom as never)],
    ["answer(caller getter)", () => w.answer(getter(answer, "caller") as never)],
    ["answer(response getter)", () => w.answer(getter(answer, "response") as never)],
    ["answer(response proxy)", () => w.answer({ ...answer, response: boom })],
    [
      "elicitation(result proxy)",
      () => w.resolveElicitation({ id: "card-1", caller: ME, result: boom }),
    ],
    ["cancel(options proxy)", () => w.cancel("card-1", ME, boom as never)],
    ["cancel(caller proxy)", () => w.cancel("card-1", boom as never)],
    ["changeSchema(schema proxy)", () => w.changeSchema("card-1", ME, boom as never)],
    ["updateMetadata(patch proxy)", () => w.updateMetadata("card-1", ME, boom as never)],
    ["read(caller proxy)", () => w.read("card-1", boom as never)],
    ["open(proxy)", () => w.open(boom as never)],
    ["open(card proxy)", () => w.open({ card: boom as never, authority: ME, schema: SCHEMA_1 })],
  ];
  for (const [name, call] of calls) {
    let r: unknown;
    try {
      r = await call();
    } catch (e) {
      assert.fail(`${name} threw ${e}`);
    }
    const res = r as { ok: boolean; error?: { code: string } };
    // An unreadable elicitation result is an unreadable answer body.
    const want = name.startsWith("elicitation") ? "invalid-answer" : "invalid-request";
    assert.ok(!res.ok && res.error?.code === want, `${name}: ${JSON.stringify(r)}`);
  }
});

Deno.test("parseElicitationResult never throws on a throwing getter or proxy trap", () => {
  const boom = new Proxy({}, {
    get() {
      throw new Error("boom");
    },
  });
  const content = Object.defineProperty({}, "x", {
    enumerable: true,
    get() {
      throw new Error("boom");
    },
  });
  const keysBoom = new Proxy({}, {
    ownKeys() {
      throw new Error("boom");
    },
  });
  for (const v of [boom, { action: "accept", content }, { action: "accept", content: keysBoom }]) {
    const r = parseElicitationResult(v);
    assert.ok(!r.ok && r.error.code === "invalid", JSON.stringify(r));
  }
  assert.deepEqual(parseElicitationResult({ action: "accept", content: { x: 1 } }), {
    ok: true,
    value: { action: "accept", content: { x: 1 } },
  });
});
