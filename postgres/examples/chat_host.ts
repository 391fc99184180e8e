/**
 * A chat host's durable side, end to end, on this package's stores:
 * `migrate`, a turn with two tool effects run exactly once through
 * `TurnRecovery` over `PostgresRecoveryStore`, its v1 envelopes in
 * `PostgresReplayLog` and a client's resume after a cursor (`replayAfter`),
 * a card answered through `InteractionResolver` over
 * `PostgresInteractionStore` with its workflow transition taken from the
 * outbox, and a cancel that stops the turn's remaining effect (delivered to
 * every process over LISTEN/NOTIFY by `PostgresCancelDelivery`).
 *
 * Zero setup (PGlite in memory):      deno run -A postgres/examples/chat_host.ts
 * PGlite on a directory (kept):        deno run -A postgres/examples/chat_host.ts --dir ./data/chat
 * A real server:  DATABASE_URL=postgres://… deno run -A postgres/examples/chat_host.ts
 *
 * Every run works in a fresh conversation, so it can be run again on the
 * same database. Prints what happens and exits 0, or 1 on an unexpected
 * answer.
 *
 * @module
 */
import postgres from "postgres";
import { PGlite } from "@electric-sql/pglite";
import { type ChatEventEnvelope } from "@papercusp/chat-protocol";
import {
  CancelRelay,
  MemoryExecutions,
  replayAfter,
  TurnRecovery,
} from "@papercusp/chat-protocol/recovery";
import { InteractionResolver, type StandardSchemaV1 } from "@papercusp/chat-protocol/interactions";
import {
  ALL_TURNS,
  databaseClock,
  migrate,
  type PgDriver,
  pgliteDriver,
  PostgresCancelDelivery,
  PostgresInteractionStore,
  postgresJsDriver,
  PostgresRecoveryStore,
  PostgresReplayLog,
} from "@papercusp/chat-protocol-postgres";
import { openPGliteDir } from "@papercusp/chat-protocol-postgres/pglite-dir";

function fail(what: string, value: unknown): never {
  console.error(`unexpected: ${what}: ${JSON.stringify(value)}`);
  Deno.exit(1);
}

// ---- 1. the driver: a real server, PGlite on a directory, or PGlite in memory --------------

async function connect(): Promise<{ sql: PgDriver; where: string }> {
  const url = Deno.env.get("DATABASE_URL");
  if (url) {
    // One pool for the stores; the cancel delivery takes one connection of it for LISTEN.
    const client = postgres(url, { max: 4, onnotice: () => {} });
    return { sql: postgresJsDriver(client, { lockTimeoutMs: 2_000 }), where: "server" };
  }
  const i = Deno.args.indexOf("--dir");
  if (i >= 0) {
    const opened = await openPGliteDir({ dataDir: Deno.args[i + 1], open: (d) => new PGlite(d) });
    if (!opened.ok) fail("openPGliteDir", opened.error); // e.g. locked: open in another process
    return { sql: opened.value.driver, where: `PGlite in ${Deno.args[i + 1]}` };
  }
  return { sql: pgliteDriver(await PGlite.create()), where: "PGlite in memory" };
}

const { sql, where } = await connect();
console.log(`database: ${where}`);

// ---- 2. migrate: our tables beside the host's, in schema "chat", named "app_…" -------------

const tables = { schema: "chat", prefix: "app_" };
const migrated = await migrate(sql, tables);
if (!migrated.ok) fail("migrate", migrated.error);
console.log(`migrate: schema version ${migrated.value.version}`);

// ---- 3. the stores, wired into the core's TurnRecovery and InteractionResolver -------------

const store = new PostgresRecoveryStore(sql, tables);
const log = new PostgresReplayLog(sql, tables);
const cards = new PostgresInteractionStore(sql, tables);
const delivery = new PostgresCancelDelivery(sql, tables);
const clock = await databaseClock(sql); // leases judged by one clock: the database's
const executions = new MemoryExecutions(); // this process's abort signals, by turn
const recovery = new TurnRecovery({
  store,
  authority: store.authority(),
  abort: executions,
  cancelDelivery: delivery,
  now: clock.now,
  workerId: `example-${Deno.pid}`,
});
// Cancels committed by any process abort this process's running dispatches.
const relay = new CancelRelay({ delivery, store, abort: executions });
await relay.start();

const conversationId = `conv-${crypto.randomUUID().slice(0, 8)}`;
const turnId = `${conversationId}-turn-1`;
// Authority: the user may act on this turn; the host's service identity on every turn.
await store.grant("alice", turnId);
await store.grant("host", ALL_TURNS, "system");

// ---- 4. a turn: effects exactly once, envelopes in the replay log -----------------------------

let seq = 0;
async function emit(event: ChatEventEnvelope["event"]): Promise<void> {
  const envelope = {
    schemaVersion: 1,
    conversationId,
    turnId,
    eventId: `${turnId}-${++seq}`,
    seq,
    event,
  } as ChatEventEnvelope;
  const r = await log.append(envelope);
  if (!r.ok) fail("append", r.error); // seq-conflict, duplicate-event-id, invalid-envelope, …
}

const begun = await recovery.beginTurn({
  conversationId,
  turnId,
  principal: "alice",
  effectIds: ["send-email", "charge-card"], // host-allocated: a model-made id is refused
});
if (!begun.ok) fail("beginTurn", begun.error);
await emit(
  { type: "delta", text: "Sending the confirmation e-mail…" } as ChatEventEnvelope["event"],
);

let emailsSent = 0;
const sent = await recovery.runEffect({
  turnId,
  effectId: "send-email",
  principal: "alice",
  dispatch: () => ({ messageId: `msg-${++emailsSent}` }), // runs after the admission commits
});
if (!sent.ok || sent.value.status !== "completed") fail("runEffect", sent);
console.log(`effect send-email: ${JSON.stringify(sent.value.outcome)}`);
// Running it again (a retry, a second worker, a restarted process) reuses the stored outcome.
const again = await recovery.runEffect({
  turnId,
  effectId: "send-email",
  principal: "alice",
  dispatch: () => ({ messageId: `msg-${++emailsSent}` }),
});
if (!again.ok || again.value.status !== "completed" || !again.value.reused) fail("rerun", again);
console.log(`effect send-email again: reused, e-mails sent: ${emailsSent}`);
await emit({ type: "delta", text: " sent." } as ChatEventEnvelope["event"]);

// A client that saw seq 1 reconnects (Last-Event-ID: 1) and gets exactly what followed.
const replay = await replayAfter(log, { conversationId, turnId, afterSeq: 1 });
if (!replay.ok) fail("replayAfter", replay.error);
console.log(`replay after seq 1: ${replay.value.frames.map((f) => f.seq).join(", ")}`);

// ---- 5. a card: the answer and its workflow transition commit together ------------------------

const confirm: StandardSchemaV1<unknown, { confirmed: boolean }> = {
  "~standard": {
    version: 1,
    vendor: "example",
    validate: (v) => {
      const c = (v as { confirmed?: unknown } | null)?.confirmed;
      return typeof c === "boolean"
        ? { value: { confirmed: c } }
        : { issues: [{ message: "confirmed must be a boolean" }] };
    },
  },
};
const resolver = new InteractionResolver({
  store: cards,
  schemas: (ref) => (ref.id === "confirm" && ref.revision === 1 ? confirm : undefined),
});
const authority = {
  conversationId,
  principalId: "alice",
  tenantId: "tenant-1",
  customerId: "customer-1",
  publicOwnerId: "owner-1",
};
const opened = await resolver.open({
  card: { prompt: "Charge the card?" },
  authority,
  schema: { id: "confirm", revision: 1 },
});
if (!opened.ok) fail("open", opened.error);
const cardId = opened.value.record.id;
const answer = (submissionId: string) =>
  resolver.answer({
    id: cardId,
    caller: authority, // from the host's session, never from the request body
    response: { action: "submit", correlationId: cardId, value: { confirmed: true } },
    submissionId,
  });
const first = await answer("tab-1");
if (!first.ok) fail("answer", first.error);
const second = await answer("tab-2"); // a second tab answering the same card
console.log(
  `card: ${first.value.outcome}; second answer: ${second.ok ? "accepted?!" : second.error.code}`,
);
if (second.ok) fail("second answer", second.value);
const delivered = await cards.consumeOutbox((batch) => {
  for (const e of batch) console.log(`outbox: ${e.transition.kind} ${e.transition.id}`);
});
if (delivered < 1) fail("outbox", delivered);

// ---- 6. cancel: committed first, then every process's dispatch of the turn aborts ------------

const cancelled = await recovery.cancel({
  turnId,
  principal: "alice",
  reason: "user pressed stop",
});
if (!cancelled.ok) fail("cancel", cancelled.error);
const charge = await recovery.runEffect({
  turnId,
  effectId: "charge-card",
  principal: "alice",
  dispatch: () => fail("charge-card dispatched after the cancel", null),
});
console.log(
  `cancel: turn ${cancelled.value.turn.status}; charge-card: ${
    charge.ok ? charge.value.status : charge.error.code
  }`,
);
if (charge.ok) fail("charge-card after cancel", charge.value);

await relay.stop();
clock.close();
await sql.close();
console.log("done");
