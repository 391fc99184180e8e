import assert from "node:assert/strict";
import type { ChatEventEnvelope } from "@papercusp/chat-protocol";
import {
  MAX_RECOVERY_ID_LENGTH,
  MemoryExecutions,
  TurnRecovery,
} from "@papercusp/chat-protocol/recovery";
import { migrate, PostgresRecoveryStore, PostgresReplayLog } from "../mod.ts";
import { serverDriver, withSchema } from "./_helpers/db.ts";

// Regression: ids the core accepts (512 UTF-16 code units; CJK is 1,536
// UTF-8 bytes each) overflowed PostgreSQL's 2,704-byte btree entry as
// composite keys: runEffect answered a misleading `contention`, a replay
// append with a 4 KB eventId `store-unavailable`. Now they are refused
// before any SQL, as documented.

const cjk = (n: number) =>
  Array.from({ length: n }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20000))).join("");

Deno.test("key ids [server]: ids over 1,024 UTF-8 bytes are refused before SQL; 1,024 are stored", () =>
  withSchema(() => serverDriver({ max: 2 }), "kb", async (d, schema) => {
    await migrate(d, { schema });
    const store = new PostgresRecoveryStore(d, { schema });
    const long = cjk(MAX_RECOVERY_ID_LENGTH); // 1,536 bytes
    const atLimit = "x" + cjk(341); // 1,024 bytes, 342 code units
    await assert.rejects(store.grant("alice", long), TypeError);
    await assert.rejects(
      store.casTurn(long, 0, {
        turnId: long,
        conversationId: "c",
        status: "running",
        effectIds: [],
      }),
      TypeError,
    );
    await assert.rejects(
      store.casEffect(atLimit, long, 0, {
        turnId: atLimit,
        effectId: long,
        state: "claimed",
        claimToken: "t",
        claims: 1,
      }),
      TypeError,
    );
    assert.equal(await store.readTurn(long), null);
    assert.equal(await store.readEffect(long, long), null);

    // Through the core: a typed refusal, not `contention`.
    const rec = new TurnRecovery({
      store,
      authority: store.authority(),
      abort: new MemoryExecutions(),
    });
    const begun = await rec.beginTurn({
      conversationId: "c",
      turnId: long,
      principal: "alice",
      effectIds: ["e1"],
    });
    assert.equal(begun.ok, false);

    // Two ids at the limit fit one composite key.
    await store.grant(atLimit, atLimit);
    const b = await rec.beginTurn({
      conversationId: "c",
      turnId: atLimit,
      principal: atLimit,
      effectIds: [atLimit],
    });
    assert.ok(b.ok, JSON.stringify(!b.ok && b.error));
    const r = await rec.runEffect({
      turnId: atLimit,
      effectId: atLimit,
      principal: atLimit,
      dispatch: () => 7,
    });
    assert.ok(r.ok, JSON.stringify(!r.ok && r.error));

    const log = new PostgresReplayLog(d, { schema });
    const env = (eventId: string, turnId = "t1") =>
      ({
        schemaVersion: 1,
        conversationId: "c1",
        turnId,
        eventId,
        seq: 1,
        event: { type: "delta", text: "x" },
      }) as ChatEventEnvelope;
    const refused = await log.append(env("e".repeat(4096)));
    assert.equal(!refused.ok && refused.error.code, "invalid-envelope");
    const refused2 = await log.append(env("e1", long));
    assert.equal(!refused2.ok && refused2.error.code, "invalid-envelope");
    const ok = await log.append(env(atLimit, atLimit));
    assert.ok(ok.ok, JSON.stringify(!ok.ok && ok.error));
  }));
