/**
 * Open a card, answer it twice from two workers: one wins, the other gets the
 * typed `duplicate` refusal carrying the stored submission. Then a second card
 * whose user loses access before answering is closed by the host itself.
 *
 * Run: deno run examples/interactions_example.ts
 */
import { z } from "zod";
import {
  type InteractionAuthority,
  InteractionResolver,
  MemoryInteractionStore,
  type SchemaRef,
  type SystemAuthority,
} from "../interactions.ts";

// The host's immutable, server-owned answer schemas, looked up by id + revision.
const approveSchema = z.object({ optionId: z.enum(["approve", "reject"]) });
const schemas = (ref: SchemaRef) =>
  ref.id === "deploy-approval" && ref.revision === 1 ? approveSchema : undefined;

// One shared database (a Postgres table in production); two stateless workers.
const store = new MemoryInteractionStore();
const workerA = new InteractionResolver({ store, schemas });
const workerB = new InteractionResolver({ store, schemas });

// Authority is bound by the backend from its own session, never from the client.
const alice: InteractionAuthority = {
  conversationId: "conv-42",
  principalId: "alice",
  tenantId: "acme",
  customerId: "cust-7",
  publicOwnerId: "alice",
};

const opened = await workerA.open({
  card: {
    prompt: "Deploy v2.3 to production?",
    presentation: {
      kind: "radio",
      options: [{ id: "approve", label: "Approve" }, { id: "reject", label: "Reject" }],
    },
    timeoutMs: 10 * 60_000,
  },
  authority: alice,
  schema: { id: "deploy-approval", revision: 1 },
});
if (!opened.ok) throw new Error(opened.error.message);
const id = opened.value.record.id;
console.log("opened card", id, "→ send to the client:", opened.value.snapshot.prompt);

// The same card is answered twice, concurrently, through two workers.
const [first, second] = await Promise.all([
  workerA.answer({
    id,
    caller: alice,
    response: { action: "submit", correlationId: id, value: { optionId: "approve" } },
  }),
  workerB.answer({
    id,
    caller: alice,
    response: { action: "submit", correlationId: id, value: { optionId: "reject" } },
  }),
]);

for (const [name, r] of [["worker A", first], ["worker B", second]] as const) {
  if (r.ok) {
    console.log(`${name}: won, stored ${JSON.stringify(r.value.submission.value)}`);
    console.log(
      `${name}: workflow transition ${r.value.transition?.kind} @ revision ${r.value.record.revision}`,
    );
  } else if (r.error.code === "duplicate") {
    console.log(
      `${name}: refused "duplicate"; the stored answer is ${
        JSON.stringify(r.error.submission.value)
      }`,
    );
  } else {
    console.log(`${name}: refused "${r.error.code}": ${r.error.message}`);
  }
}

const winners = [first, second].filter((r) => r.ok).length;
console.log(`winners: ${winners}, transitions stored: ${store.transitions(id).length}`);

// A second card. Alice's access is revoked before she answers: she can no longer
// act on it, but the host's own system identity can close it (cancel or expire).
const reaper: SystemAuthority = { kind: "system", actorId: "reaper", tenantId: "acme" };
await store.grantSystem(reaper);
const again = await workerA.open({
  card: { prompt: "Roll back v2.3?" },
  authority: alice,
  schema: { id: "deploy-approval", revision: 1 },
});
if (!again.ok) throw new Error(again.error.message);
const rollbackId = again.value.record.id;
await store.revoke({ principalId: "alice" });
const late = await workerB.answer({
  id: rollbackId,
  caller: alice,
  response: { action: "submit", correlationId: rollbackId, value: { optionId: "approve" } },
});
console.log(`after revocation, alice's answer: ${late.ok ? "stored" : late.error.code}`);
const closed = await workerB.expire(rollbackId, reaper, { reason: "access revoked" });
console.log(
  closed.ok
    ? `host expired it: status ${closed.value.record.status}, transition ${closed.value.transition?.kind}`
    : `host expire refused: ${closed.error.code}`,
);
