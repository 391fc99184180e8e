/**
 * The conformance kits' host factories over this package's stores: a fresh
 * schema per case (migrated), one adapter instance per simulated worker
 * (`connect()`), each with its own driver on the server (its own pool) or
 * sharing the one PGlite connection.
 *
 * @module
 */
import type {
  ConformanceHost,
  ConformanceWorker,
  LosableOp,
} from "@papercusp/chat-protocol/recovery/testing";
import type { InteractionStoreHarness } from "@papercusp/chat-protocol/interactions/testing";
import type { RecoveryStore } from "@papercusp/chat-protocol/recovery";
import type { InteractionStore } from "@papercusp/chat-protocol/interactions";
import {
  migrate,
  type PgDriver,
  PostgresCancelDelivery,
  PostgresInteractionStore,
  PostgresRecoveryStore,
  PostgresReplayLog,
} from "../../mod.ts";
import { dropSchema, freshSchema, pgliteMemory, serverDriver } from "./db.ts";

/** Where a case's stores live. */
export type Backend = "server" | "pglite";

/** A fresh migrated schema on `backend`, with an admin driver and a factory of worker drivers. */
export async function caseDatabase(backend: Backend, tag: string): Promise<{
  schema: string;
  admin: PgDriver;
  worker(): Promise<PgDriver>;
  close(): Promise<void>;
}> {
  const admin = backend === "server" ? await serverDriver({ max: 3 }) : await pgliteMemory();
  const schema = freshSchema(tag);
  const m = await migrate(admin, { schema });
  if (!m.ok) throw new Error(`migrate: ${m.error.message}`);
  return {
    schema,
    admin,
    worker: () => backend === "server" ? serverDriver({ max: 2 }) : pgliteMemory(),
    async close() {
      await dropSchema(admin, schema).catch(() => {});
      await admin.close();
    },
  };
}

/** `store` whose next call of an op commits, then rejects (a lost acknowledgement). */
function losingAcks(store: RecoveryStore): { store: RecoveryStore; lose(op: LosableOp): void } {
  const pending = new Set<LosableOp>();
  const after = async <T>(op: LosableOp, p: Promise<T>): Promise<T> => {
    const lose = pending.delete(op);
    const v = await p;
    if (lose) throw new Error(`acknowledgement of ${op} lost (injected after COMMIT)`);
    return v;
  };
  return {
    store: {
      readTurn: (t) => store.readTurn(t),
      readEffect: (t, e) => store.readEffect(t, e),
      casTurn: (t, x, n, g) =>
        after("casTurn", g === undefined ? store.casTurn(t, x, n) : store.casTurn(t, x, n, g)),
      casEffect: (t, e, x, n) => after("casEffect", store.casEffect(t, e, x, n)),
      admitDispatch: (r) => after("admitDispatch", store.admitDispatch!(r)),
    },
    lose: (op) => void pending.add(op),
  };
}

/** The recovery kit's host for one case on `backend`. */
export async function recoveryHost(backend: Backend): Promise<ConformanceHost> {
  const db = await caseDatabase(backend, "rk");
  const opts = { schema: db.schema };
  const admin = new PostgresRecoveryStore(db.admin, opts);
  const log = new PostgresReplayLog(db.admin, opts);
  return {
    async connect(): Promise<ConformanceWorker> {
      const driver = await db.worker();
      const store = new PostgresRecoveryStore(driver, opts);
      const wrapped = losingAcks(store);
      return {
        store: wrapped.store,
        authority: store.authority(),
        loseNextAck: wrapped.lose,
        close: () => driver.close(),
      };
    },
    grant: (p, t, actor) => admin.grant(p, t, actor),
    revoke: (p, t, actor) => admin.revoke(p, t, actor),
    cancelDelivery: new PostgresCancelDelivery(db.admin, { ...opts, healthCheckMs: 0 }),
    replay: {
      seam: log,
      async append(envelope) {
        const r = await log.append(envelope);
        if (!r.ok) throw new Error(`append refused: ${r.error.code}`);
      },
      async trimBefore(turnId, seq) {
        const { latestSeq } = await log.bounds(turnId);
        const r = await log.trim({ keepLast: Math.max(0, latestSeq - seq + 1) }, turnId);
        if (!r.ok) throw new Error(`trim refused: ${r.error.code}`);
      },
    },
    close: () => db.close(),
  };
}

/** The interactions kit's harness for one case on `backend`. */
export async function interactionHarness(backend: Backend): Promise<InteractionStoreHarness> {
  const db = await caseDatabase(backend, "ik");
  let offset = 0;
  let lose = 0;
  const opts = { schema: db.schema, clockOffsetMs: () => offset };
  const admin = new PostgresInteractionStore(db.admin, opts);
  return {
    async connect() {
      const driver = await db.worker();
      const inner = new PostgresInteractionStore(driver, opts);
      const store: InteractionStore = {
        create: (r) => inner.create(r),
        read: (id, c) => inner.read(id, c),
        transact: async (q, fn) => {
          const out = await inner.transact(q, fn);
          if (lose > 0) {
            lose--;
            throw new Error("acknowledgement lost (injected after COMMIT)");
          }
          return out;
        },
      };
      return { store, close: () => driver.close() };
    },
    now: () => admin.now(),
    advanceClock: (ms) => void (offset += ms),
    rewindClock: (ms) => void (offset -= ms),
    revoke: async (a) => void await admin.revoke(a),
    grantSystem: (actor) => admin.grantSystem(actor),
    revokeSystem: (actor) => admin.revokeSystem(actor),
    transitions: (id) => admin.transitions(id),
    loseNextAck: () => void lose++,
    close: () => db.close(),
  };
}
