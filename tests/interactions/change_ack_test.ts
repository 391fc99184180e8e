// A lost acknowledgement of a schema or metadata change is matched to this
// call's own write (its change id), never to another worker's write that
// happens to leave the record looking as this call wanted.
import assert from "node:assert/strict";
import { z } from "zod";
import {
  InteractionResolver,
  MemoryInteractionDatabase,
  MemoryInteractionStore,
} from "../../interactions.ts";

const T = 1_700_000_000_000;
const me = {
  conversationId: "c1",
  principalId: "u1",
  tenantId: "A",
  customerId: "k1",
  publicOwnerId: "o1",
};
const schemas = () => z.object({ optionId: z.string() });

async function two() {
  const db = new MemoryInteractionDatabase(() => T);
  const [s1, s2] = [
    new MemoryInteractionStore({ database: db }),
    new MemoryInteractionStore({ database: db }),
  ];
  const [r1, r2] = [
    new InteractionResolver({ store: s1, schemas, now: () => T }),
    new InteractionResolver({ store: s2, schemas, now: () => T }),
  ];
  const o = await r1.open({
    card: { prompt: "?" },
    authority: me,
    schema: { id: "p", revision: 1 },
    metadata: { k: "v" },
  });
  assert.ok(o.ok);
  return { s1, s2, r1, r2, id: o.value.record.id };
}

Deno.test("lost ack: an already-satisfied metadata patch refused by the fence is not 'recovered' from another worker's schema change", async () => {
  const { s2, r1, r2, id } = await two();
  s2.loseNextAck();
  const [a, b] = await Promise.all([
    r1.changeSchema(id, me, { id: "p", revision: 2 }),
    r2.updateMetadata(id, me, { k: "v" }),
  ]);
  assert.ok(a.ok && a.value.outcome === "committed");
  assert.equal(s2.stats.writes, 0, "worker 2 wrote nothing");
  assert.ok(!b.ok, `worker 2 must not be told its write is stored: ${JSON.stringify(b)}`);
  assert.equal(b.error.code, "needs-reconciliation");
});

Deno.test("lost ack: a schema change whose write landed is recovered by its own change id", async () => {
  const { s1, r1, id } = await two();
  s1.loseNextAck();
  const a = await r1.changeSchema(id, me, { id: "p", revision: 2 });
  assert.ok(a.ok && a.value.outcome === "recovered", JSON.stringify(a));
  assert.equal(a.value.record.change?.kind, "schema");
  const m = await r1.updateMetadata(id, me, { k: "w" });
  assert.ok(m.ok && m.value.outcome === "committed" && m.value.record.change?.kind === "metadata");
  assert.notEqual(m.value.record.change?.changeId, a.value.record.change?.changeId);
});
