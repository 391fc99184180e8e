import assert from "node:assert/strict";
import fc from "../../tests/_helpers/seed.ts";
import type { ChatEventEnvelope } from "@papercusp/chat-protocol";
import { replayAfter } from "@papercusp/chat-protocol/recovery";
import {
  migrate,
  PgArgumentError,
  type PgDriver,
  PgDriverError,
  PostgresReplayLog,
  ReplayLogCorruptionError,
  TableOptionsError,
} from "../mod.ts";
import {
  BACKENDS,
  dropSchema,
  freshSchema,
  pgliteMemory,
  serverDriver,
  withSchema,
} from "./_helpers/db.ts";
import { hostile, HOSTILE_RUNS, hostileLike } from "../../tests/_helpers/hostile.ts";
import { handled } from "../../tests/_helpers/settled.ts";

function env(
  turnId: string,
  seq: number,
  extra: Partial<ChatEventEnvelope> = {},
): ChatEventEnvelope {
  return {
    schemaVersion: 1,
    conversationId: "c1",
    turnId,
    eventId: `${turnId}-e${seq}`,
    seq,
    event: { type: "delta", text: `frame ${seq} ✓` },
    ...extra,
  } as ChatEventEnvelope;
}

interface Ctx {
  d: PgDriver;
  log: PostgresReplayLog;
  schema: string;
}

function withLog(make: () => Promise<PgDriver>, fn: (c: Ctx) => Promise<void>) {
  return withSchema(make, "rl", async (d, schema) => {
    const m = await migrate(d, { schema });
    assert.ok(m.ok, JSON.stringify(m));
    await fn({ d, log: new PostgresReplayLog(d, { schema }), schema });
  });
}

async function appendAll(log: PostgresReplayLog, turnId: string, from: number, to: number) {
  for (let s = from; s <= to; s++) {
    const r = await log.append(env(turnId, s));
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.value.alreadyStored, false);
  }
}

for (const backend of BACKENDS) {
  const name = (s: string) => `replay log [${backend.name}]: ${s}`;

  Deno.test(
    name("empty window, append, bounds, replayAfter gives exactly the suffix"),
    () =>
      withLog(backend.make, async ({ log }) => {
        assert.deepEqual(await log.bounds("t1"), { lowestRetainedSeq: 1, latestSeq: 0 });
        assert.deepEqual(await log.readAfter("t1", 0), []);
        const empty = await replayAfter(log, { conversationId: "c1", turnId: "t1", afterSeq: 0 });
        assert.ok(empty.ok);
        assert.deepEqual(empty.value, { frames: [], lastSeq: 0, lowestRetainedSeq: 1 });
        await appendAll(log, "t1", 1, 5);
        assert.deepEqual(await log.bounds("t1"), { lowestRetainedSeq: 1, latestSeq: 5 });
        for (let cursor = 0; cursor <= 5; cursor++) {
          const r = await replayAfter(log, {
            conversationId: "c1",
            turnId: "t1",
            afterSeq: cursor,
          });
          assert.ok(r.ok, JSON.stringify(r));
          assert.deepEqual(
            r.value.frames,
            [1, 2, 3, 4, 5].filter((s) => s > cursor).map((s) => env("t1", s)),
          );
          assert.equal(r.value.lastSeq, 5);
        }
        const beyond = await replayAfter(log, { conversationId: "c1", turnId: "t1", afterSeq: 6 });
        assert.equal(!beyond.ok && beyond.error.code, "cursor-beyond-latest");
        assert.equal(!beyond.ok && beyond.error.latestSeq, 5);
        // unknown keys are stripped, the stored JSON is the validated envelope
        const r = await log.append({ ...env("t1", 6), extra: "dropped" });
        assert.ok(r.ok);
        assert.deepEqual((await log.readAfter("t1", 5))[0], env("t1", 6));
      }),
  );

  Deno.test(
    name("seq must be exactly the next one; the same envelope again is alreadyStored"),
    () =>
      withLog(backend.make, async ({ log }) => {
        await appendAll(log, "t1", 1, 3);
        const gap = await log.append(env("t1", 5));
        assert.equal(gap.ok, false);
        assert.deepEqual(!gap.ok && [gap.error.code, gap.error.latestSeq, gap.error.expectedSeq], [
          "seq-conflict",
          3,
          4,
        ]);
        const taken = await log.append(env("t1", 2, { eventId: "other" }));
        assert.equal(!taken.ok && taken.error.code, "seq-conflict");
        const changed = await log.append(
          env("t1", 3, { event: { type: "delta", text: "changed" } }),
        );
        assert.equal(!changed.ok && changed.error.code, "seq-conflict");
        const again = await log.append(env("t1", 3));
        assert.ok(again.ok);
        assert.equal(again.value.alreadyStored, true);
        assert.deepEqual(await log.bounds("t1"), { lowestRetainedSeq: 1, latestSeq: 3 });
        const first = await log.append(env("t2", 2));
        assert.equal(!first.ok && first.error.code, "seq-conflict");
        assert.deepEqual(await log.bounds("t2"), { lowestRetainedSeq: 1, latestSeq: 0 });
      }),
  );

  Deno.test(
    name("event ids are unique per conversation; a turn has one conversation"),
    () =>
      withLog(backend.make, async ({ log }) => {
        await appendAll(log, "t1", 1, 2);
        const dup = await log.append(env("t2", 1, { eventId: "t1-e2" }));
        assert.equal(dup.ok, false);
        assert.equal(!dup.ok && dup.error.code, "duplicate-event-id");
        assert.deepEqual(!dup.ok && dup.error.existing, { turnId: "t1", seq: 2 });
        assert.deepEqual(await log.bounds("t2"), { lowestRetainedSeq: 1, latestSeq: 0 });
        // the same id in another conversation is fine
        const other = await log.append(env("t3", 1, { conversationId: "c2", eventId: "t1-e2" }));
        assert.ok(other.ok);
        const mismatch = await log.append(env("t1", 3, { conversationId: "c2" }));
        assert.equal(!mismatch.ok && mismatch.error.code, "conversation-mismatch");
        assert.equal(!mismatch.ok && mismatch.error.conversationId, "c1");
      }),
  );

  Deno.test(
    name("invalid and oversized envelopes are refused, nothing stored"),
    () =>
      withLog(backend.make, async ({ d, schema }) => {
        const log = new PostgresReplayLog(d, { schema, maxEnvelopeBytes: 200 });
        const bad = await log.append({ ...env("t1", 1), seq: 0 });
        assert.equal(!bad.ok && bad.error.code, "invalid-envelope");
        assert.ok(!bad.ok && bad.error.issues && bad.error.issues.length > 0);
        const big = await log.append(
          env("t1", 1, { event: { type: "delta", text: "é".repeat(120) } }),
        );
        assert.equal(!big.ok && big.error.code, "too-large");
        const cyclic: Record<string, unknown> = {};
        cyclic.self = cyclic;
        const unserializable = await log.append(
          env("t1", 1, { event: { type: "state", version: 1, snapshot: cyclic } }),
        );
        assert.equal(!unserializable.ok && unserializable.error.code, "invalid-envelope");
        assert.deepEqual(await log.bounds("t1"), { lowestRetainedSeq: 1, latestSeq: 0 });
        assert.throws(() => new PostgresReplayLog(d, { schema: "No" }), TableOptionsError);
        assert.throws(() => new PostgresReplayLog(d, { maxReadFrames: 0 }), PgArgumentError);
      }),
  );

  Deno.test(
    name("inside the caller's transaction: commits or rolls back with it"),
    () =>
      withLog(backend.make, async ({ d, log }) => {
        const oops = new Error("turn state change failed");
        await assert.rejects(
          d.transaction(async (tx) => {
            const r = await log.append(env("t1", 1), { tx });
            assert.ok(r.ok);
            throw oops;
          }),
          (e) => e === oops,
        );
        assert.deepEqual(await log.bounds("t1"), { lowestRetainedSeq: 1, latestSeq: 0 });
        await d.transaction(async (tx) => {
          assert.ok((await log.append(env("t1", 1), { tx })).ok);
          // a refusal leaves the transaction usable
          const dup = await log.append(env("t1", 1, { eventId: "x" }), { tx });
          assert.equal(!dup.ok && dup.error.code, "seq-conflict");
          assert.ok((await log.append(env("t1", 2), { tx })).ok);
        });
        assert.deepEqual(await log.bounds("t1"), { lowestRetainedSeq: 1, latestSeq: 2 });
      }),
  );

  Deno.test(
    name("retention: keepLast and olderThanMs raise the lower bound; stale cursors"),
    () =>
      withLog(backend.make, async ({ d, log, schema }) => {
        await appendAll(log, "t1", 1, 10);
        await appendAll(log, "t2", 1, 3);
        const kept = await log.trim({ keepLast: 4 }, "t1");
        assert.ok(kept.ok);
        assert.deepEqual(kept.value, [{
          turnId: "t1",
          lowestRetainedSeq: 7,
          latestSeq: 10,
          removed: 6,
        }]);
        assert.deepEqual(await log.bounds("t1"), { lowestRetainedSeq: 7, latestSeq: 10 });
        assert.deepEqual((await log.readAfter("t1", 0)).map((e) => e.seq), [7, 8, 9, 10]);
        const stale = await replayAfter(log, { conversationId: "c1", turnId: "t1", afterSeq: 5 });
        assert.deepEqual(!stale.ok && [stale.error.code, stale.error.lowestRetainedSeq], [
          "stale-cursor",
          7,
        ]);
        const edge = await replayAfter(log, { conversationId: "c1", turnId: "t1", afterSeq: 6 });
        assert.ok(edge.ok);
        assert.deepEqual(edge.value.frames.map((e) => e.seq), [7, 8, 9, 10]);
        // appends continue after trimming
        await appendAll(log, "t1", 11, 11);
        // age: frames 11 and t2's 1..2 are made old by the database clock
        await d.query(
          `UPDATE "${schema}".chat_replay_frames SET appended_at = now() - interval '1 hour'
         WHERE (turn_id = 't1' AND seq <= 8) OR (turn_id = 't2' AND seq <= 2)`,
        );
        const aged = await log.trim({ olderThanMs: 60_000 });
        assert.ok(aged.ok);
        assert.deepEqual(aged.value, [
          { turnId: "t1", lowestRetainedSeq: 9, latestSeq: 11, removed: 2 },
          { turnId: "t2", lowestRetainedSeq: 3, latestSeq: 3, removed: 2 },
        ]);
        // keepLast 0 empties the window; the bounds stay: lowest = latest + 1
        const all = await log.trim({ keepLast: 0 }, "t2");
        assert.ok(all.ok);
        assert.deepEqual(await log.bounds("t2"), { lowestRetainedSeq: 4, latestSeq: 3 });
        const current = await replayAfter(log, { conversationId: "c1", turnId: "t2", afterSeq: 3 });
        assert.ok(current.ok);
        assert.deepEqual(current.value.frames, []);
        // trimming never lowers a bound
        const noop = await log.trim({ keepLast: 100 });
        assert.ok(noop.ok);
        assert.deepEqual(noop.value.map((t) => t.removed), [0, 0]);
        assert.deepEqual(await log.bounds("t1"), { lowestRetainedSeq: 9, latestSeq: 11 });
        await assert.rejects(log.trim({}), PgArgumentError);
        await assert.rejects(log.trim({ keepLast: -1 }), PgArgumentError);
        assert.equal(await log.deleteTurn("t2"), true);
        assert.equal(await log.deleteTurn("t2"), false);
        assert.deepEqual(await log.bounds("t2"), { lowestRetainedSeq: 1, latestSeq: 0 });
      }),
  );

  Deno.test(
    name("replayAfter reports tampered storage: gap, reordered, foreign-frame, corrupt"),
    () =>
      withLog(backend.make, async ({ d, log, schema }) => {
        const frames = `"${schema}".chat_replay_frames`;
        await appendAll(log, "t1", 1, 6);
        const replay = (afterSeq: number) =>
          replayAfter(log, { conversationId: "c1", turnId: "t1", afterSeq });
        await d.query(`DELETE FROM ${frames} WHERE turn_id = 't1' AND seq = 3`);
        const gap = await replay(1);
        assert.deepEqual(!gap.ok && [gap.error.code, gap.error.expectedSeq, gap.error.gotSeq], [
          "gap",
          3,
          4,
        ]);
        // frame 4's row now holds the envelope of seq 2: a rewind
        await d.query(
          `UPDATE ${frames} SET envelope = (SELECT envelope FROM ${frames} WHERE turn_id = 't1' AND seq = 2)
         WHERE turn_id = 't1' AND seq = 4`,
        );
        const rewind = await replay(3);
        assert.deepEqual(!rewind.ok && [rewind.error.code, rewind.error.gotSeq], ["reordered", 2]);
        await d.query(
          `UPDATE ${frames} SET envelope = replace(envelope, '"conversationId":"c1"', '"conversationId":"c9"')
         WHERE turn_id = 't1' AND seq = 5`,
        );
        const foreign = await replay(4);
        assert.deepEqual(!foreign.ok && [foreign.error.code, foreign.error.index], [
          "foreign-frame",
          0,
        ]);
        await d.query(
          `UPDATE ${frames} SET envelope = '{not json' WHERE turn_id = 't1' AND seq = 6`,
        );
        await assert.rejects(log.readAfter("t1", 5), ReplayLogCorruptionError);
        const corrupt = await replay(5);
        assert.equal(!corrupt.ok && corrupt.error.code, "replay-unavailable");
        await assert.rejects(log.readAfter("t1", -1), PgArgumentError);
      }),
  );
}

Deno.test("replay log [server]: of two concurrent appends of one seq, the loser gets seq-conflict", async () => {
  const a = await serverDriver({ max: 2 });
  const b = await serverDriver({ max: 2 });
  const schema = freshSchema("rl");
  try {
    assert.ok((await migrate(a, { schema })).ok);
    const logA = new PostgresReplayLog(a, { schema });
    const logB = new PostgresReplayLog(b, { schema });
    // The turn row exists already (the steady state: its lock, not a first insert, serializes).
    assert.ok((await logA.append(env("t1", 1))).ok);
    let commitA!: () => void;
    const aMayCommit = new Promise<void>((r) => commitA = r);
    let appendedA!: () => void;
    const aAppended = new Promise<void>((r) => appendedA = r);
    const txA = handled(a.transaction(async (tx) => {
      assert.ok((await logA.append(env("t1", 2), { tx })).ok);
      appendedA();
      await aMayCommit;
    }));
    await aAppended;
    // B's append of the same seq waits on A's turn lock …
    let bDone = false;
    const bAppend = handled(
      logB.append(env("t1", 2, { eventId: "from-b" })).finally(() => bDone = true),
    );
    // Observed, not slept on: the server reports a backend waiting on a lock
    // (A holds the turn lock and waits for the test, so only B can be it).
    let waiting = false;
    for (let i = 0; i < 6_000 && !waiting && !bDone; i++) {
      const { rows } = await a.query(
        "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1::text",
        [`%${schema}%`],
      );
      waiting = rows.length > 0;
      if (!waiting) await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(bDone, false, "B must wait for A's lock");
    assert.ok(waiting, "B's append is seen waiting on a lock");
    commitA();
    await txA;
    // … and then sees A's committed frame.
    const lost = await bAppend;
    assert.deepEqual(!lost.ok && [lost.error.code, lost.error.latestSeq], ["seq-conflict", 2]);
    assert.ok((await logB.append(env("t1", 3, { eventId: "from-b" }))).ok);
    assert.deepEqual((await logA.readAfter("t1", 0)).map((e) => e.eventId), [
      "t1-e1",
      "t1-e2",
      "from-b",
    ]);
  } finally {
    await dropSchema(a, schema);
    await a.close();
    await b.close();
  }
});

Deno.test("replay log: a database failure is store-unavailable with the commit outcome", async () => {
  const lost = new PgDriverError("connection lost", { kind: "connection", commit: "uncertain" });
  const failing = {
    kind: "postgres.js",
    concurrent: true,
    query: () => Promise.reject(lost),
    transaction: () => Promise.reject(lost),
    listen: () => Promise.reject(lost),
    close: () => Promise.resolve(),
  } as unknown as PgDriver;
  const log = new PostgresReplayLog(failing);
  const r = await log.append(env("t1", 1));
  assert.deepEqual(!r.ok && [r.error.code, r.error.kind, r.error.commit], [
    "store-unavailable",
    "connection",
    "uncertain",
  ]);
  const t = await log.trim({ keepLast: 1 });
  assert.equal(!t.ok && t.error.code, "store-unavailable");
  // inside the caller's transaction the failure rejects, so that transaction fails as a whole
  await assert.rejects(log.append(env("t1", 1), { tx: failing }), (e) => e === lost);
  const replay = await replayAfter(log, { conversationId: "c1", turnId: "t1", afterSeq: 0 });
  assert.equal(!replay.ok && replay.error.code, "replay-unavailable");
});

Deno.test("replay log [pglite]: append never throws on hostile input and stores only valid envelopes", async () => {
  const d = await pgliteMemory();
  const schema = freshSchema("rh");
  assert.ok((await migrate(d, { schema })).ok);
  const log = new PostgresReplayLog(d, { schema });
  let stored = 0;
  const wellShaped = fc.record({
    schemaVersion: fc.constant(1),
    conversationId: fc.constant("c1"),
    turnId: fc.constantFrom("h1", "h2"),
    eventId: fc.uuid(),
    seq: fc.integer({ min: 1, max: 3 }),
    event: fc.record({ type: fc.constant("delta"), text: fc.string() }),
  });
  await fc.assert(
    fc.asyncProperty(fc.oneof(hostile(), hostileLike(wellShaped)), async (h) => {
      const value = h.build();
      const r = await log.append(value);
      if (r.ok) {
        if (!r.value.alreadyStored) stored++;
      } else {
        assert.ok(
          ["invalid-envelope", "too-large", "seq-conflict"].includes(r.error.code),
          r.error.code,
        );
      }
    }),
    { numRuns: HOSTILE_RUNS },
  );
  // whatever was stored replays cleanly, turn by turn
  const { rows: turns } = await d.query<{ turn_id: string; conversation_id: string }>(
    `SELECT turn_id, conversation_id FROM "${schema}".chat_replay_turns`,
  );
  for (const t of turns) {
    const r = await replayAfter(log, {
      conversationId: t.conversation_id,
      turnId: t.turn_id,
      afterSeq: 0,
    });
    assert.ok(r.ok, JSON.stringify(r));
    stored -= r.value.frames.length;
  }
  assert.ok(turns.length >= 2);
  assert.equal(stored, 0);
});

Deno.test("replay log [pglite]: ids PostgreSQL text cannot hold unchanged are refused, never merged", async () => {
  const d = await pgliteMemory();
  const schema = freshSchema("ru");
  assert.ok((await migrate(d, { schema })).ok);
  const log = new PostgresReplayLog(d, { schema });
  for (const turnId of ["t\u0000", "\uD800", "a\uDC00b"]) {
    const r = await log.append(env(turnId, 1));
    assert.equal(!r.ok && r.error.code, "invalid-envelope");
    assert.deepEqual(await log.bounds(turnId), { lowestRetainedSeq: 1, latestSeq: 0 });
    assert.deepEqual(await log.readAfter(turnId, 0), []);
    assert.equal(await log.deleteTurn(turnId), false);
    const t = await log.trim({ keepLast: 1 }, turnId);
    assert.deepEqual(t.ok && t.value, []);
  }
  const ev = await log.append(env("t1", 1, { eventId: "e\u0000" }));
  assert.equal(!ev.ok && ev.error.code, "invalid-envelope");
  // a well-formed astral id is fine and round-trips
  const ok = await log.append(env("t\u{1F600}", 1));
  assert.ok(ok.ok);
  assert.equal((await log.readAfter("t\u{1F600}", 0))[0].turnId, "t\u{1F600}");
});
