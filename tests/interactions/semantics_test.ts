/**
 * The interactions gaps of issue 11, each pinned by a test that fails on the
 * code before (see the commit message): lost-ack recovery matching only the
 * submission id, and no way for the server to cancel or expire a card once
 * the bound user's authority is revoked.
 */
import assert from "node:assert/strict";
import {
  type InteractionStore,
  MemoryInteractionStore,
  type SystemAuthority,
} from "../../interactions.ts";
import { ME, pick, SCHEMA_1, setup } from "./_fixtures.ts";
import { handled } from "../_helpers/settled.ts";

const REAPER: SystemAuthority = { kind: "system", actorId: "reaper", tenantId: ME.tenantId };

/** `store` whose transact waits at `gate` before it reaches the store. */
function held(store: InteractionStore, gate: Promise<void>, reached: () => void): InteractionStore {
  return {
    create: (r) => store.create(r),
    read: (id, c) => store.read(id, c),
    transact: async (q, f) => {
      reached();
      await gate;
      return store.transact(q, f);
    },
  };
}

for (const loser of ["decline", "cancel", "submit-other-value"] as const) {
  Deno.test(`lost ack: a ${loser} with the same submission id as the stored submit is not 'recovered'`, async () => {
    const { store, worker } = setup();
    await worker().open({ id: "c", card: { prompt: "?" }, authority: ME, schema: SCHEMA_1 });
    const { promise: gate, resolve: open } = Promise.withResolvers<void>();
    const { promise: atStore, resolve: reached } = Promise.withResolvers<void>();
    const slow = worker(held(store, gate, reached));
    const response = loser === "submit-other-value"
      ? pick("c", "b")
      : { action: loser, correlationId: "c" };
    const pending = slow.answer({ id: "c", caller: ME, response, submissionId: "same" });
    await atStore;
    const won = await worker().answer({
      id: "c",
      caller: ME,
      response: pick("c", "a"),
      submissionId: "same",
    });
    assert.ok(won.ok && won.value.outcome === "committed");
    store.loseNextAck();
    open();
    const out = await pending;
    assert.ok(!out.ok, `the ${loser} must not be reported as stored: ${JSON.stringify(out)}`);
    assert.equal(out.error.code, "needs-reconciliation");
    assert.equal(store.peek("c")?.submission?.action, "submit");
    assert.deepEqual(store.peek("c")?.submission?.value, { optionId: "A" });
  });
}

Deno.test("lost ack: the same whole submission read back (a JSON store reordering keys) is recovered", async () => {
  const { store, worker } = setup();
  await worker().open({ id: "c", card: { prompt: "?" }, authority: ME, schema: SCHEMA_1 });
  const reordering: InteractionStore = {
    create: (r) => store.create(r),
    transact: (q, f) => store.transact(q, f),
    read: async (id, c) => {
      const r = await store.read(id, c);
      if (!r.ok || r.record.submission === undefined) return r;
      const { value, ...rest } = r.record.submission;
      return { ...r, record: { ...r.record, submission: { value, ...rest } } };
    },
  };
  store.loseNextAck();
  const out = await worker(reordering).answer({
    id: "c",
    caller: ME,
    response: pick("c", "a"),
    submissionId: "s1",
  });
  assert.ok(out.ok && out.value.outcome === "recovered");
});

Deno.test("system authority: after the user's revocation the host cancels and expires under the same fence; it never answers", async () => {
  const { store, worker } = setup();
  const w = worker();
  for (const id of ["c1", "c2", "c3"]) {
    assert.ok((await w.open({ id, card: { prompt: "?" }, authority: ME, schema: SCHEMA_1 })).ok);
  }
  await store.revoke({ principalId: ME.principalId });
  const user = await w.cancel("c1", ME, { reason: "stop" });
  assert.ok(!user.ok && user.error.code === "unauthorized");
  const ungranted = await w.cancel("c1", REAPER);
  assert.ok(!ungranted.ok && ungranted.error.code === "unauthorized", "no system grant yet");
  await store.grantSystem(REAPER);
  const foreign = await w.cancel("c1", { ...REAPER, tenantId: "tenant-2" });
  assert.ok(!foreign.ok && foreign.error.code === "unauthorized", "another tenant's system actor");
  const cancelled = await w.cancel("c1", REAPER, { reason: "account closed" });
  assert.ok(cancelled.ok, JSON.stringify(cancelled));
  assert.equal(cancelled.value.record.status, "cancelled");
  assert.equal(cancelled.value.submission.actorId, "reaper");
  assert.equal(cancelled.value.submission.principalId, ME.principalId);
  assert.equal(cancelled.value.transition?.kind, "cancelled");
  const expired = await w.expire("c2", REAPER, { reason: "deadline" });
  assert.ok(expired.ok && expired.value.record.status === "expired");
  assert.equal(expired.value.transition?.kind, "expired");
  const late = await w.answer({ id: "c2", caller: ME, response: pick("c2", "a") });
  assert.ok(!late.ok && late.error.code === "unauthorized");
  const view = await w.read("c2", REAPER);
  assert.ok(view.ok && view.value.status === "expired" && view.value.openCard === null);
  // A system caller may not answer, change the schema or edit metadata, nor a user expire.
  const answering = await w.answer({
    id: "c3",
    caller: REAPER as never,
    response: pick("c3", "a"),
  });
  assert.ok(!answering.ok && answering.error.code === "invalid-request");
  const meta = await w.updateMetadata("c3", REAPER as never, { k: "v" });
  assert.ok(!meta.ok && meta.error.code === "invalid-request");
  const userExpire = await w.expire("c3", ME as never);
  assert.ok(!userExpire.ok && userExpire.error.code === "invalid-request");
  // And the store's own fence refuses a system answer even if a resolver asked for one.
  const direct = await store.transact(
    { id: "c3", caller: REAPER, action: "answer", expectedRevision: 1, expectedSchema: SCHEMA_1 },
    () => ({ kind: "read", result: null }),
  );
  assert.ok(!direct.ok && direct.error.code === "unauthorized");
  assert.equal(store.transitions("c3").length, 0);
});

Deno.test("system authority: a revocation racing a held answer waits for it; the next fence refuses", async () => {
  const store = new MemoryInteractionStore();
  const { worker } = setup();
  const w = worker(store);
  await w.open({ id: "c", card: { prompt: "?" }, authority: ME, schema: SCHEMA_1 });
  const { promise: gate, resolve: open } = Promise.withResolvers<void>();
  const { promise: inside, resolve: entered } = Promise.withResolvers<void>();
  const tx = handled(store.transact(
    { id: "c", caller: ME, action: "answer", expectedRevision: 1, expectedSchema: SCHEMA_1 },
    async () => {
      entered();
      await gate;
      return { kind: "read" as const, result: "held" };
    },
  ));
  await inside;
  // Judged by what the store committed, not by a sleep: while the answer
  // holds the grant, the revocation is not applied, however long it waits.
  const revocation = handled(store.revoke({ principalId: ME.principalId }));
  // One macrotask: every microtask a store that does not wait would need runs first.
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(
    store.database.revoked.length,
    0,
    "the revocation waits for the transaction that read the grant",
  );
  open();
  assert.ok((await tx).ok);
  await revocation;
  assert.equal(store.database.revoked.length, 1);
  const after = await w.answer({ id: "c", caller: ME, response: pick("c", "a") });
  assert.ok(!after.ok && after.error.code === "unauthorized");
});
