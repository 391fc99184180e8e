/**
 * Lost-ack recovery compares the stored submission's value with the one sent
 * by a canonical digest (object keys sorted at every depth): a database that
 * hands a JSON value back with its keys in another order (jsonb) at any depth
 * is still "recovered", and a value that differs anywhere is not. Before, no
 * test reordered the keys of the value itself, so dropping the sort went
 * unnoticed.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import {
  FakeClock,
  InteractionResolver,
  type InteractionStore,
  MemoryInteractionStore,
  type SchemaRef,
} from "../../interactions.ts";
import { ME } from "./_fixtures.ts";

const NESTED: SchemaRef = { id: "nested", revision: 1 };
const schema = z.object({
  a: z.string(),
  b: z.object({ x: z.number(), y: z.object({ p: z.string(), q: z.string() }) }),
  c: z.array(z.object({ m: z.number(), n: z.number() })),
});

/** `v` with the keys of every object in reverse order (arrays keep their order). */
function reversed(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reversed);
  if (v === null || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).reverse()) out[k] = reversed((v as Record<string, unknown>)[k]);
  return out;
}

/** The store reads submissions back through `change` (a JSON database's own key order). */
function through(store: MemoryInteractionStore, change: (v: unknown) => unknown): InteractionStore {
  return {
    create: (r) => store.create(r),
    transact: (q, f) => store.transact(q, f),
    read: async (id, c) => {
      const r = await store.read(id, c);
      if (!r.ok || r.record.submission === undefined) return r;
      const submission = { ...r.record.submission, value: change(r.record.submission.value) };
      return { ...r, record: { ...r.record, submission } };
    },
  };
}

const VALUE = { a: "1", b: { x: 2, y: { p: "3", q: "4" } }, c: [{ m: 5, n: 6 }] };

async function answerWithLostAck(change: (v: unknown) => unknown) {
  const clock = new FakeClock();
  const store = new MemoryInteractionStore({ now: () => clock.now() });
  const worker = (s: InteractionStore) =>
    new InteractionResolver({
      store: s,
      schemas: (ref) => (ref.id === NESTED.id ? schema : undefined),
      now: () => clock.now(),
    });
  const opened = await worker(store).open({
    id: "c",
    card: { prompt: "?" },
    authority: ME,
    schema: NESTED,
  });
  assert.ok(opened.ok, JSON.stringify(opened));
  store.loseNextAck();
  return await worker(through(store, change)).answer({
    id: "c",
    caller: ME,
    response: { action: "submit", correlationId: "c", value: VALUE },
    submissionId: "s1",
  });
}

Deno.test("lost ack: a value read back with its keys reordered at every depth is recovered", async () => {
  const out = await answerWithLostAck(reversed);
  assert.ok(out.ok && out.value.outcome === "recovered", JSON.stringify(out));
});

Deno.test("lost ack: a value read back with only its nested keys reordered is recovered", async () => {
  const out = await answerWithLostAck((v) => {
    const { a, b, c } = v as typeof VALUE;
    return { a, b: reversed(b), c: reversed(c) };
  });
  assert.ok(out.ok && out.value.outcome === "recovered", JSON.stringify(out));
});

Deno.test("lost ack: a value that differs at depth (reordered too) is not recovered", async () => {
  const out = await answerWithLostAck((v) => {
    const w = structuredClone(v) as typeof VALUE;
    w.b.y.q = "changed";
    return reversed(w);
  });
  assert.ok(!out.ok && out.error.code === "needs-reconciliation", JSON.stringify(out));
});
