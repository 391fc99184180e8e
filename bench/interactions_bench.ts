/**
 * Interactions benches: open + answer through the reference store, the cost
 * of Standard Schema validation (zod 4), and a 2-worker race.
 * Run: deno bench --allow-read --allow-env bench/interactions_bench.ts
 */
import { z } from "zod";
import {
  type InteractionAuthority,
  InteractionResolver,
  MemoryInteractionStore,
  type SchemaRef,
  standardValidate,
} from "../interactions.ts";

const me: InteractionAuthority = {
  conversationId: "c",
  principalId: "u",
  tenantId: "t",
  customerId: "k",
  publicOwnerId: "o",
};
const schema = z.object({ optionId: z.enum(["a", "b"]) });
const schemas = (ref: SchemaRef) => (ref.id === "pick" ? schema : undefined);
const store = new MemoryInteractionStore();
const w1 = new InteractionResolver({ store, schemas });
const w2 = new InteractionResolver({ store, schemas });
let n = 0;

Deno.bench("standardValidate (zod 4 object)", { group: "validate", baseline: true }, async () => {
  await standardValidate(schema, { optionId: "a" });
});
Deno.bench("zod safeParse (reference)", { group: "validate" }, () => {
  schema.safeParse({ optionId: "a" });
});

Deno.bench("open + answer (memory store)", { group: "resolve", baseline: true }, async () => {
  const id = `b${n++}`;
  await w1.open({ id, card: { prompt: "?" }, authority: me, schema: { id: "pick", revision: 1 } });
  await w1.answer({
    id,
    caller: me,
    response: { action: "submit", correlationId: id, value: { optionId: "a" } },
  });
});

Deno.bench("open + 2-worker race (memory store)", { group: "resolve" }, async () => {
  const id = `r${n++}`;
  await w1.open({ id, card: { prompt: "?" }, authority: me, schema: { id: "pick", revision: 1 } });
  const response = { action: "submit", correlationId: id, value: { optionId: "a" } };
  await Promise.all([
    w1.answer({ id, caller: me, response }),
    w2.answer({ id, caller: me, response }),
  ]);
});
