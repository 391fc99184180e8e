// Hostile resolver options: a throwing schema registry or clock becomes a
// typed refusal (never a rejected promise), a clock in seconds is refused,
// and a malformed maxAnswerBytes never lifts the answer bound.
import assert from "node:assert/strict";
import { z } from "zod";
import {
  DEFAULT_MAX_ANSWER_BYTES,
  InteractionResolver,
  MemoryInteractionStore,
} from "../../interactions.ts";

const me = {
  conversationId: "c1",
  principalId: "u1",
  tenantId: "t1",
  customerId: "k1",
  publicOwnerId: "o1",
};
const schemas = (r: { id: string }) => r.id === "pick" ? z.object({ text: z.string() }) : undefined;
const card = { card: { prompt: "?" }, authority: me, schema: { id: "pick", revision: 1 } };

async function opened(store: MemoryInteractionStore): Promise<string> {
  const o = await new InteractionResolver({ store, schemas }).open(card);
  assert.ok(o.ok);
  return o.value.record.id;
}

Deno.test("hostile options: a schema registry that throws is an unknown-schema refusal on open, answer and changeSchema", async () => {
  const store = new MemoryInteractionStore();
  const id = await opened(store);
  const bad = new InteractionResolver({
    store,
    schemas: () => {
      throw new Error("registry down");
    },
  });
  const submit = { action: "submit", correlationId: id, value: { text: "a" } } as const;
  for (
    const call of [
      () => bad.open(card),
      () => bad.answer({ id, caller: me, response: submit }),
      () => bad.changeSchema(id, me, { id: "pick", revision: 2 }),
    ]
  ) {
    const r = await call();
    assert.ok(!r.ok && r.error.code === "unknown-schema", JSON.stringify(r));
    assert.match(r.error.message, /registry threw: .*registry down/);
  }
});

Deno.test("hostile options: a clock that throws, is not finite, or answers seconds makes open refuse invalid-request", async () => {
  const store = new MemoryInteractionStore();
  for (
    const now of [
      () => {
        throw new Error("clock");
      },
      () => Number.NaN,
      () => Math.floor(Date.now() / 1000),
    ]
  ) {
    const r = await new InteractionResolver({ store, schemas, now }).open(card);
    assert.ok(!r.ok && r.error.code === "invalid-request", JSON.stringify(r));
  }
});

Deno.test("hostile options: maxAnswerBytes NaN, negative, fractional or infinite falls back to the default bound", async () => {
  const big = "x".repeat(DEFAULT_MAX_ANSWER_BYTES + 10);
  for (const maxAnswerBytes of [Number.NaN, -1, 0, 1.5, Infinity, "10" as unknown as number]) {
    const store = new MemoryInteractionStore();
    const id = await opened(store);
    const r = new InteractionResolver({ store, schemas, maxAnswerBytes });
    const out = await r.answer({
      id,
      caller: me,
      response: { action: "submit", correlationId: id, value: { text: big } },
    });
    assert.ok(
      !out.ok && out.error.code === "invalid-answer",
      `${maxAnswerBytes}: ${JSON.stringify(out).slice(0, 200)}`,
    );
    const small = await r.answer({
      id,
      caller: me,
      response: { action: "submit", correlationId: id, value: { text: "fits" } },
    });
    assert.ok(small.ok, `${maxAnswerBytes}: a small answer must pass`);
  }
});
