/** Shared test fixtures for the interactions tests. @module */
import { z } from "zod";
import {
  FakeClock,
  type InteractionAuthority,
  InteractionResolver,
  type InteractionStore,
  MemoryInteractionStore,
  type SchemaRef,
  type StandardSchemaV1,
} from "../../interactions.ts";

export const ME: InteractionAuthority = {
  conversationId: "conv-1",
  principalId: "user-1",
  tenantId: "tenant-1",
  customerId: "cust-1",
  publicOwnerId: "owner-1",
};
export const SCHEMA_1: SchemaRef = { id: "pick", revision: 1 };
export const SCHEMA_2: SchemaRef = { id: "pick", revision: 2 };

/** Revision 1 accepts a|b, revision 2 accepts a|b|c; both upper-case the output. */
export const schemas = (ref: SchemaRef): StandardSchemaV1 | undefined => {
  if (ref.id !== "pick") return undefined;
  if (ref.revision === 1) {
    return z.object({ optionId: z.enum(["a", "b"]) }).transform((v) => ({
      optionId: v.optionId.toUpperCase(),
    }));
  }
  if (ref.revision === 2) return z.object({ optionId: z.enum(["a", "b", "c"]) });
  return undefined;
};

export function setup() {
  const clock = new FakeClock();
  const store = new MemoryInteractionStore({ now: () => clock.now() });
  let n = 0;
  const worker = (s: InteractionStore = store) =>
    new InteractionResolver({
      store: s,
      schemas,
      now: () => clock.now(),
      newId: () => `id-${++n}`,
    });
  return { clock, store, worker };
}

export const pick = (id: string, optionId: unknown) => ({
  action: "submit" as const,
  correlationId: id,
  value: { optionId },
});

/** A store proxy recording the order of calls (a spy). */
export function spyOn(store: InteractionStore): { store: InteractionStore; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    store: {
      create: (r) => (calls.push("create"), store.create(r)),
      read: (id, c) => (calls.push("read"), store.read(id, c)),
      transact: (req, fn) => (calls.push("transact"), store.transact(req, fn)),
    },
  };
}
