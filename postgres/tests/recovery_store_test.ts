import assert from "node:assert/strict";
import { migrate, type PgDriver, PostgresRecoveryStore } from "../mod.ts";
import { serverDriver, withSchema } from "./_helpers/db.ts";

Deno.test("recovery store [server]: concurrent guarded creates at revision 0 → one wins, the rest conflict with its record", () =>
  withSchema(() => serverDriver({ max: 2 }), "gc", async (d, schema) => {
    // Regression: the losers threw a plain Error("the locked turn row
    // changed under its lock") (there is no row to lock before the create).
    await migrate(d, { schema });
    const drivers: PgDriver[] = [];
    for (let i = 0; i < 3; i++) drivers.push(await serverDriver({ max: 2 }));
    try {
      const stores = drivers.map((x) => new PostgresRecoveryStore(x, { schema }));
      await stores[0].grant("sys", "*", "system");
      for (let round = 0; round < 15; round++) {
        const turnId = `g${round}`;
        const outs = await Promise.all(stores.map((s, i) =>
          s.casTurn(
            turnId,
            0,
            { turnId, conversationId: "c", status: "cancelled", effectIds: [], reason: `w${i}` },
            { actor: "system", principal: "sys", action: "cancel" },
          )
        ));
        const won = outs.filter((o) => o.ok);
        assert.equal(won.length, 1, JSON.stringify(outs));
        const record = won[0].ok ? won[0].record : null;
        for (const o of outs) {
          if (o.ok) continue;
          assert.equal(o.code, "conflict");
          assert.deepEqual(o.code === "conflict" ? o.current : undefined, record);
        }
      }
    } finally {
      for (const x of drivers) await x.close();
    }
  }));
