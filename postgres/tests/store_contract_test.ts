/**
 * The store contract cases (tests/_helpers/store_contract.ts) on the
 * PostgreSQL stores, against a real server: the same typed refusals as the
 * memory stores (tests/recovery/store_contract_test.ts), before any SQL.
 */
import { MemoryExecutions } from "@papercusp/chat-protocol/recovery";
import { PostgresInteractionStore, PostgresRecoveryStore } from "../mod.ts";
import { caseDatabase } from "./_helpers/hosts.ts";
import { INTERACTION_CASES, RECOVERY_CASES } from "../../tests/_helpers/store_contract.ts";

Deno.test("store contract (PostgreSQL recovery) [server]", async (t) => {
  const db = await caseDatabase("server", "scr");
  try {
    const store = new PostgresRecoveryStore(db.admin, { schema: db.schema });
    const seams = { store, authority: store.authority(), abort: new MemoryExecutions() };
    for (const c of RECOVERY_CASES) {
      await t.step(
        c.name,
        () => c.run({ seams, grant: (p, turnId) => store.grant(p, turnId), close: async () => {} }),
      );
    }
  } finally {
    await db.close();
  }
});

Deno.test("store contract (PostgreSQL interactions) [server]", async (t) => {
  const db = await caseDatabase("server", "sci");
  try {
    const store = new PostgresInteractionStore(db.admin, { schema: db.schema });
    for (const c of INTERACTION_CASES) {
      await t.step(c.name, () => c.run({ store, close: async () => {} }));
    }
  } finally {
    await db.close();
  }
});
