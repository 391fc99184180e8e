/**
 * Store-level interactions conformance cases: the kit calls `create`,
 * `read` and `transact` itself, one adapter instance per simulated worker,
 * and holds a transaction open on purpose (its callback returns a promise
 * the kit settles) to race another instance and a revocation against it.
 *
 * @module
 */
import { deferred, eventually, watch } from "../_internal/kit_support.ts";
import {
  check,
  InjectedCrashError,
  KIT_AUTHORITY,
  KIT_SYSTEM,
  type KitCase,
  OTHER,
  record,
  req,
  SCHEMA_1,
  SCHEMA_2,
  writeSubmit,
} from "./_kit_env.ts";
import type { AddCase } from "./_kit_env.ts";
import type { InteractionRecordV1, InteractionStore, TransactRequest } from "./types.ts";

/** Checks that `store` refuses `request` with `code` WITHOUT running the callback. */
async function refusedBeforeCallback(
  env: KitCase,
  store: InteractionStore,
  request: TransactRequest,
  code: string,
  why: string,
): Promise<void> {
  let called = false;
  const out = await env.call(
    store.transact(request, (cur, ctx) => {
      called = true;
      return writeSubmit(cur, ctx.now, "late");
    }),
    "transact",
  );
  check(
    out?.ok === false && out.error?.code === code,
    `${why} → ${code} (got ${out?.ok ? "ok" : out?.error?.code})`,
  );
  check(!called, `the callback must not run ${why}`);
}

/** Commit `changes` (plus revision + 1) on top of the current record through `store`, no transition. */
function writeThrough(
  env: KitCase,
  store: InteractionStore,
  request: TransactRequest,
  changes: (cur: InteractionRecordV1, now: number) => Partial<InteractionRecordV1>,
) {
  return env.call(
    store.transact(request, (cur, ctx) => ({
      kind: "write",
      next: { ...cur, revision: cur.revision + 1, ...changes(cur, ctx.now) },
      transition: null,
      result: null,
    })),
    "transact",
  );
}

/** Try to submit `sid` through `store` with `request`. */
function trySubmit(env: KitCase, store: InteractionStore, request: TransactRequest, sid = "x") {
  return env.call(
    store.transact(request, (cur, ctx) => writeSubmit(cur, ctx.now, sid)),
    "transact",
  );
}

/** Open a kit card through `store` and return it. */
async function created(
  env: KitCase,
  store: InteractionStore,
  id: string,
  expiresIn: number | null = null,
): Promise<InteractionRecordV1> {
  const now = await env.now();
  const r = await env.call(
    store.create(record(id, now, expiresIn === null ? null : now + expiresIn)),
    "create",
  );
  check(r?.ok === true, "create must succeed for a new id");
  return r.value;
}

/** A transaction on `id` (as `request`'s caller and action) held inside its callback until `release()`. */
async function heldTransact(
  env: KitCase,
  store: InteractionStore,
  id: string,
  request: TransactRequest = req(id),
) {
  const gate = deferred();
  let calls = 0;
  const tx = watch(store.transact(request, async (cur, ctx) => {
    calls++;
    await gate.promise;
    return writeSubmit(cur, ctx.now, "held");
  }));
  check(
    await eventually(() => calls > 0 || tx.settled(), env.settings.timeoutMs),
    "transact never called back",
  );
  check(
    !tx.settled(),
    "transact settled before the callback it invoked settled: await the callback inside the transaction",
  );
  return {
    release: async () => {
      gate.resolve();
      return await env.call(tx.promise, "transact");
    },
  };
}

const HELD_ROW =
  "another instance's transaction on the same row ran its callback (or committed) while the " +
  "first held the row: lock the row in the database (SELECT … FOR UPDATE) for the whole " +
  "transaction, not per adapter instance, and never check then write unconditionally";

const REVOKED_WHILE_HELD =
  "a revocation of the authority a transaction read was acknowledged while that transaction " +
  "held its fence: read the grant inside the transaction with FOR SHARE, so a revocation " +
  "waits for the answer it authorised (checking before the transaction, or unlocked, lets " +
  "it commit between check and write)";

/** Register the store-level cases. */
export function storeCases(add: AddCase): void {
  add(
    "store: create inserts once, never overwrites, and a fresh instance reads it",
    null,
    async (env, p) => {
      const [a, b] = [await env.store(), await env.store()];
      const rec = await created(env, a, `${p}create`);
      const again = await env.call(
        b.create({ ...rec, metadata: { overwritten: "yes" } }),
        "create",
      );
      check(
        again?.ok === false && again.error?.code === "already-exists",
        "a second create (another instance) must refuse",
      );
      const r = await env.call(b.read(rec.id, KIT_AUTHORITY), "read");
      check(
        r?.ok === true && r.record.metadata.overwritten === undefined,
        "create must not overwrite",
      );
    },
  );

  add(
    "store: read rechecks scope and current authority (user and system callers)",
    null,
    async (env, p) => {
      const s = await env.store();
      const id = `${p}read`;
      await created(env, s, id);
      const missing = await env.call(s.read(`${p}missing`, KIT_AUTHORITY), "read");
      check(missing?.ok === false && missing.code === "not-found", "missing → not-found");
      const other = await env.call(s.read(id, OTHER), "read");
      check(
        other?.ok === false && other.code === "unauthorized",
        "another principal → unauthorized",
      );
      for (const k of ["tenantId", "conversationId", "customerId", "publicOwnerId"] as const) {
        const r = await env.call(s.read(id, { ...KIT_AUTHORITY, [k]: "someone-else" }), "read");
        check(r?.ok === false && r.code === "unauthorized", `another ${k} → unauthorized`);
      }
      const ungranted = await env.call(s.read(id, KIT_SYSTEM), "read");
      check(
        ungranted?.ok === false && ungranted.code === "unauthorized",
        "a system caller without a grant → unauthorized",
      );
      await env.call(env.h.grantSystem(KIT_SYSTEM), "grantSystem()");
      const sys = await env.call(s.read(id, KIT_SYSTEM), "read");
      check(sys?.ok === true, "a granted system caller of the record's tenant may read");
      const foreign = await env.call(
        s.read(id, { ...KIT_SYSTEM, tenantId: "tenant-other" }),
        "read",
      );
      check(
        foreign?.ok === false && foreign.code === "unauthorized",
        "a system caller of another tenant → unauthorized",
      );
      await env.call(env.h.revoke(KIT_AUTHORITY), "revoke()");
      const revoked = await env.call(s.read(id, KIT_AUTHORITY), "read");
      check(
        revoked?.ok === false && revoked.code === "unauthorized",
        "revoked authority → unauthorized",
      );
    },
  );

  add(
    "store: transact calls back once and stores record + transition together (a fresh instance reads both)",
    null,
    async (env, p) => {
      const [s, fresh] = [await env.store(), await env.store()];
      const id = `${p}once`;
      await created(env, s, id);
      let calls = 0;
      const out = await env.call(
        s.transact(req(id), (cur, ctx) => {
          calls++;
          check(
            cur.revision === 1 && cur.status === "pending",
            "the callback sees the current record",
          );
          check(
            ctx.authority.principalId === KIT_AUTHORITY.principalId,
            "the callback gets the bound authority",
          );
          return writeSubmit(cur, ctx.now, "sub-1");
        }),
        "transact",
      );
      check(calls === 1, `the callback must run exactly once, ran ${calls}`);
      check(
        out?.ok === true && out.value.result === "sub-1",
        "transact returns the callback result",
      );
      const r = await env.call(fresh.read(id, KIT_AUTHORITY), "read");
      check(
        r?.ok === true && r.record.revision === 2 && r.record.status === "submitted",
        "a fresh instance reads the record",
      );
      const ts = await env.transitions(id);
      check(ts.length === 1 && ts[0].submissionId === "sub-1", "exactly one transition stored");
    },
  );

  add("store: a read-only decision has no effect", null, async (env, p) => {
    const s = await env.store();
    const id = `${p}ro`;
    await created(env, s, id);
    const out = await env.call(
      s.transact(req(id), () => ({ kind: "read", result: 42 })),
      "transact",
    );
    check(
      out?.ok === true && out.value.result === 42 && out.value.transition === null,
      "read result",
    );
    const r = await env.call(s.read(id, KIT_AUTHORITY), "read");
    check(
      r?.ok === true && r.record.revision === 1 && r.record.status === "pending",
      "nothing written",
    );
    check((await env.transitions(id)).length === 0, "no transition");
  });

  add(
    "store: the fence refuses another principal, and any user expire, without calling back",
    null,
    async (env, p) => {
      const s = await env.store();
      const id = `${p}scope`;
      await created(env, s, id);
      for (
        const k of [
          "principalId",
          "tenantId",
          "conversationId",
          "customerId",
          "publicOwnerId",
        ] as const
      ) {
        await refusedBeforeCallback(
          env,
          s,
          req(id, 1, SCHEMA_1, { ...KIT_AUTHORITY, [k]: "intruder" }),
          "unauthorized",
          `for a ${k} mismatch`,
        );
      }
      await refusedBeforeCallback(
        env,
        s,
        req(id, 1, SCHEMA_1, KIT_AUTHORITY, "expire"),
        "unauthorized",
        "for a user's expire",
      );
      const r = await env.call(s.read(id, KIT_AUTHORITY), "read");
      check(r?.ok === true && r.record.status === "pending", "still pending");
    },
  );

  add(
    "store: the fence rechecks revoked authority inside the transaction",
    null,
    async (env, p) => {
      const s = await env.store();
      const id = `${p}revoke`;
      await created(env, s, id);
      await env.call(env.h.revoke(KIT_AUTHORITY), "revoke()");
      await refusedBeforeCallback(env, s, req(id), "unauthorized", "after revocation");
      check((await env.transitions(id)).length === 0, "no transition after revocation");
    },
  );

  add(
    "store: a system caller may cancel and expire (with a grant, in its tenant) but never answer",
    null,
    async (env, p) => {
      const s = await env.store();
      const id = `${p}system`;
      await created(env, s, id);
      await env.call(env.h.revoke(KIT_AUTHORITY), "revoke()");
      await refusedBeforeCallback(
        env,
        s,
        req(id, 1, SCHEMA_1, KIT_SYSTEM, "cancel"),
        "unauthorized",
        "for a system caller without a grant",
      );
      await env.call(env.h.grantSystem(KIT_SYSTEM), "grantSystem()");
      await refusedBeforeCallback(
        env,
        s,
        req(id, 1, SCHEMA_1, KIT_SYSTEM, "answer"),
        "unauthorized",
        "for a system caller answering",
      );
      await refusedBeforeCallback(
        env,
        s,
        req(id, 1, SCHEMA_1, { ...KIT_SYSTEM, tenantId: "tenant-other" }, "cancel"),
        "unauthorized",
        "for a system caller of another tenant",
      );
      const out = await writeThrough(env, s, req(id, 1, SCHEMA_1, KIT_SYSTEM, "cancel"), () => ({
        status: "cancelled",
      }));
      check(out?.ok === true, "a granted system caller must cancel after the user's revocation");
    },
  );

  add(
    "store: a system grant is per tenant: an actor granted in another tenant may not read, cancel or expire here",
    null,
    async (env, p) => {
      const s = await env.store();
      const id = `${p}system-tenant`;
      await created(env, s, id);
      const elsewhere = { actorId: "kit-reaper-elsewhere", tenantId: "tenant-other" };
      await env.call(env.h.grantSystem(elsewhere), "grantSystem()");
      // The same actor claims the record's own tenant, where it holds no grant.
      const here = {
        kind: "system" as const,
        actorId: elsewhere.actorId,
        tenantId: KIT_AUTHORITY.tenantId,
      };
      const read = await env.call(s.read(id, here), "read");
      check(
        read?.ok === false && read.code === "unauthorized",
        "a system actor granted only in another tenant read a record of this tenant: " +
          "look the grant up by actor AND tenant (the record's tenant)",
      );
      for (const action of ["cancel", "expire"] as const) {
        await refusedBeforeCallback(
          env,
          s,
          req(id, 1, SCHEMA_1, here, action),
          "unauthorized",
          `for a system actor granted only in another tenant (${action}): look the grant up ` +
            "by actor AND tenant",
        );
      }
    },
  );

  add(
    "store: a revoked system grant is refused by the next fence on the same adapter instance (no cached grant)",
    "system-revocation",
    async (env, p) => {
      const revokeSystem = env.need(env.h.revokeSystem, "revokeSystem()", "system-revocation");
      const s = await env.store();
      const [first, second] = [`${p}sys-warm`, `${p}sys-after`];
      await created(env, s, first);
      await created(env, s, second);
      await env.call(env.h.grantSystem(KIT_SYSTEM), "grantSystem()");
      const warm = await writeThrough(
        env,
        s,
        req(first, 1, SCHEMA_1, KIT_SYSTEM, "cancel"),
        () => ({
          status: "cancelled",
        }),
      );
      check(warm?.ok === true, "a granted system caller must cancel");
      await env.call(
        revokeSystem.call(env.h, { actorId: KIT_SYSTEM.actorId, tenantId: KIT_SYSTEM.tenantId }),
        "revokeSystem()",
      );
      await refusedBeforeCallback(
        env,
        s,
        req(second, 1, SCHEMA_1, KIT_SYSTEM, "expire"),
        "unauthorized",
        "for a system caller whose grant was revoked, on an adapter instance that saw the grant " +
          "before: read the system grant in every fence transaction, never from a cache",
      );
    },
  );

  add("store: the fence refuses at and after expiry by the store clock", null, async (env, p) => {
    const s = await env.store();
    const id = `${p}exp`;
    await created(env, s, id, 1000);
    await env.advance(1000);
    await refusedBeforeCallback(env, s, req(id), "expired", "after expiry");
    check((await env.transitions(id)).length === 0, "no transition after expiry");
  });

  add(
    "store: the fence refuses resolved, cancelled and expired records, carrying the current record",
    null,
    async (env, p) => {
      const s = await env.store();
      const ids = { term: `${p}term`, cancel: `${p}cancel`, expired: `${p}expired` };
      for (const id of Object.values(ids)) await created(env, s, id);
      await trySubmit(env, s, req(ids.term), "first");
      await writeThrough(env, s, req(ids.cancel), () => ({ status: "cancelled" }));
      await env.call(env.h.grantSystem(KIT_SYSTEM), "grantSystem()");
      await writeThrough(
        env,
        s,
        req(ids.expired, 1, SCHEMA_1, KIT_SYSTEM, "expire"),
        (_c, now) => ({
          status: "expired",
          expiresAt: now,
        }),
      );
      for (
        const [id, code] of [[ids.term, "resolved"], [ids.cancel, "cancelled"], [
          ids.expired,
          "expired",
        ]] as const
      ) {
        const late = await trySubmit(env, s, req(id, 2));
        check(
          late?.ok === false && late.error?.code === code &&
            (late.error as { current?: InteractionRecordV1 }).current?.revision === 2,
          `a ${code} record must be refused ${code}, carrying the current record`,
        );
      }
    },
  );

  add(
    "store: the fence refuses a changed schema and a stale revision, carrying the current record",
    null,
    async (env, p) => {
      const s = await env.store();
      const id = `${p}rev`;
      await created(env, s, id);
      await writeThrough(env, s, req(id), () => ({ schema: { ...SCHEMA_2 } }));
      const schema = await trySubmit(env, s, req(id, 1, SCHEMA_1));
      check(
        schema?.ok === false && schema.error?.code === "schema-changed" &&
          (schema.error as { current?: InteractionRecordV1 }).current?.schema.revision === 2,
        "an old schema → schema-changed with the current record",
      );
      await writeThrough(env, s, req(id, 2, SCHEMA_2), () => ({ metadata: { step: "1" } }));
      const stale = await trySubmit(env, s, req(id, 2, SCHEMA_2));
      check(
        stale?.ok === false && stale.error?.code === "stale-revision" &&
          (stale.error as { current?: InteractionRecordV1 }).current?.revision === 3,
        "an old revision → stale-revision with the current record",
      );
    },
  );

  add(
    "store: concurrent transacts from separate instances on one revision commit exactly once",
    null,
    async (env, p) => {
      const stores = await Promise.all(Array.from({ length: env.settings.n }, () => env.store()));
      const id = `${p}race`;
      await created(env, stores[0], id);
      const outs = await env.call(
        Promise.all(
          stores.map((s, i) =>
            s.transact(req(id), (cur, ctx) => writeSubmit(cur, ctx.now, `w${i}`))
          ),
        ),
        "concurrent transact",
      );
      const winners = outs.filter((o) => o?.ok === true);
      check(winners.length === 1, `exactly one transact must commit, ${winners.length} did`);
      check((await env.transitions(id)).length === 1, "exactly one transition");
    },
  );

  add(
    "store: a held transaction blocks another instance's transaction on the same row",
    null,
    async (env, p) => {
      const [a, b] = [await env.store(), await env.store()];
      const id = `${p}held`;
      await created(env, a, id);
      const held = await heldTransact(env, a, id);
      let secondCalled = false;
      const second = watch(b.transact(req(id), (cur, ctx) => {
        secondCalled = true;
        return writeSubmit(cur, ctx.now, "second");
      }));
      const probe = await env.probe();
      await env.pending(second.promise, env.settings.holdMs, async () => {
        const r = await env.call(probe.read(id, KIT_AUTHORITY), "read (probe)");
        check(!(r?.ok === true && r.record.revision > 1), HELD_ROW);
      });
      const calledWhileHeld = secondCalled;
      const first = await held.release();
      const out = await env.call(second.promise, "transact");
      check(!calledWhileHeld, HELD_ROW);
      check(
        first?.ok === true && out?.ok === false,
        "the held transaction commits and the second is refused",
      );
      check((await env.transitions(id)).length === 1, "exactly one transition");
    },
  );

  add(
    "store: a held transaction blocks revocation of the authority it read (authority rows are read under the fence)",
    null,
    async (env, p) => {
      const s = await env.store();
      const id = `${p}held-revoke`;
      await created(env, s, id);
      const held = await heldTransact(env, s, id);
      const revoke = watch(Promise.resolve(env.h.revoke(KIT_AUTHORITY)));
      const probe = await env.probe();
      const blocked = await env.pending(revoke.promise, env.settings.holdMs, async () => {
        const r = await env.call(probe.read(id, KIT_AUTHORITY), "read (probe)");
        check(r?.ok === true, REVOKED_WHILE_HELD);
      });
      await held.release();
      await env.call(revoke.promise, "revoke()");
      check(blocked, REVOKED_WHILE_HELD);
    },
  );

  add(
    "store: a held system-caller transaction blocks revocation of the system grant it read (FOR SHARE on the system grant too)",
    "system-revocation",
    async (env, p) => {
      const revokeSystem = env.need(env.h.revokeSystem, "revokeSystem()", "system-revocation");
      const s = await env.store();
      const id = `${p}held-revoke-system`;
      await created(env, s, id);
      await env.call(env.h.grantSystem(KIT_SYSTEM), "grantSystem()");
      const held = await heldTransact(env, s, id, req(id, 1, SCHEMA_1, KIT_SYSTEM, "cancel"));
      const revoke = watch(Promise.resolve(revokeSystem.call(env.h, KIT_SYSTEM)));
      const probe = await env.probe();
      const why = "a revocation of the system grant a system caller's transaction read was " +
        "acknowledged while that transaction held its fence: read the system grant with FOR " +
        "SHARE inside the transaction too, so its revocation waits for the write it authorised";
      const blocked = await env.pending(revoke.promise, env.settings.holdMs, async () => {
        const r = await env.call(probe.read(id, KIT_SYSTEM), "read (probe)");
        check(r?.ok === true, why);
      });
      await held.release();
      await env.call(revoke.promise, "revokeSystem()");
      check(blocked, why);
    },
  );

  add(
    "store: a callback's next record that breaks the rules (revision, id, authority, createdAt) is refused and writes nothing",
    null,
    async (env, p) => {
      const [s, probe] = [await env.store(), await env.probe()];
      const id = `${p}bad-next`;
      const opened = await created(env, s, id);
      const bad: [string, (cur: InteractionRecordV1) => Partial<InteractionRecordV1>][] = [
        ["a skipped revision", (cur) => ({ revision: cur.revision + 2 })],
        ["an unchanged revision", (cur) => ({ revision: cur.revision })],
        ["another id", () => ({ id: `${id}-other` })],
        ["another authority", () => ({ authority: { ...OTHER } })],
        ["another createdAt", (cur) => ({ createdAt: cur.createdAt + 1 })],
        ["another format version", () => ({ v: 2 as unknown as 1 })],
      ];
      for (const [what, change] of bad) {
        let out: unknown;
        try {
          out = await env.call(
            s.transact(req(id), (cur, ctx) => {
              const d = writeSubmit(cur, ctx.now, "bad");
              return { ...d, next: { ...d.next, ...change(cur) } };
            }),
            "transact",
          );
        } catch {
          out = undefined; // refused by throwing: allowed
        }
        const r = await env.call(probe.read(id, KIT_AUTHORITY), "read (probe)");
        check(
          (out as { ok?: unknown } | undefined)?.ok !== true && r?.ok === true &&
            r.record.revision === opened.revision && r.record.status === "pending",
          `a callback's next record with ${what} was written: validate next before writing it ` +
            "(nextRecordProblem: revision exactly current + 1, same id, authority, createdAt, v 1)",
        );
      }
      check((await env.transitions(id)).length === 0, "no transition for a refused next record");
    },
  );

  add(
    "store: record and transition are written together even when writing the second fails (crash between them)",
    null,
    async (env, p) => {
      const [s, fresh] = [await env.store(), await env.store()];
      for (const part of ["transition", "record"] as const) {
        const id = `${p}crash-${part}`;
        await created(env, s, id);
        let threw = false;
        try {
          await s.transact(req(id), (cur, ctx) => {
            const d = writeSubmit(cur, ctx.now, "crash");
            const boom = {
              get: () => {
                throw new InjectedCrashError(`writing the ${part}`);
              },
            };
            if (part === "transition") {
              Object.defineProperty(d.transition, "at", { ...boom, enumerable: true });
            } else Object.defineProperty(d.next, "metadata", { ...boom, enumerable: true });
            return d;
          });
        } catch {
          threw = true;
        }
        const r = await env.call(fresh.read(id, KIT_AUTHORITY), "read");
        const ts = await env.transitions(id);
        const recordWritten = r?.ok === true && r.record.revision === 2;
        check(
          recordWritten === (ts.length === 1),
          `a failure while writing the ${part} left ${
            recordWritten ? "the record" : "a transition"
          } ` +
            "without its pair: insert the outbox row in the same transaction as the record update " +
            "(serialize both before writing)",
        );
        check(
          threw || recordWritten,
          "a transaction that wrote nothing must not resolve as committed",
        );
      }
    },
  );

  add(
    "store: a clock step back never re-opens an expired record",
    "clock-rewind",
    async (env, p) => {
      const rewind = env.need(env.h.rewindClock, "rewindClock()", "clock-rewind");
      const s = await env.store();
      const id = `${p}rewind`;
      const opened = await created(env, s, id, 1000);
      await env.advance(1000);
      const first = await trySubmit(env, s, req(id), "a");
      check(first?.ok === false && first.error?.code === "expired", "expired at the boundary");
      await env.call(rewind.call(env.h, 500), "rewindClock()");
      await refusedBeforeCallback(env, s, req(id), "expired", "after the clock stepped back");
      const r = await env.call(s.read(id, KIT_AUTHORITY), "read");
      check(
        r?.ok === true && opened.expiresAt !== null && r.now >= opened.expiresAt,
        "read's clock must not go back either",
      );
      check((await env.transitions(id)).length === 0, "no transition");
    },
  );
}
