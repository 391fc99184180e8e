/**
 * One contract for every store, refused up front by the core: the same
 * cases run against the memory reference stores (tests/recovery,
 * tests/interactions) and the PostgreSQL stores (postgres/tests). Strings a
 * store keeps (ids, authority fields, reasons, evidence) hold no NUL and no
 * lone surrogate; an effect outcome's value is JSON data. Anything else is
 * refused `invalid-request` before any store call, or, for a dispatch that
 * already ran and resolved with a value no store keeps as given, answered
 * `needs-reconciliation` (`dispatch-error`) with the effect stored `unknown`.
 * Before, memory accepted what PostgreSQL answered `store-unavailable` or
 * `checkpoint-write-failed` for (leaving the effect admitted), and `NaN`
 * was stored as `null`.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  type EffectRecord,
  type RecoveryStore,
  TurnRecovery,
  type TurnRecoveryOptions,
} from "../../recovery.ts";
import {
  type InteractionAuthority,
  InteractionResolver,
  type InteractionStore,
} from "../../interactions.ts";
import { z } from "zod";

/** A recovery store under test: the worker's seams and a grant. */
export interface RecoveryUnderTest {
  readonly seams: Pick<TurnRecoveryOptions, "store" | "authority" | "abort">;
  grant(principal: string, turnId: string): Promise<unknown>;
  close(): Promise<void>;
}

/** One named contract case. */
export interface ContractCase<T> {
  readonly name: string;
  readonly run: (subject: T) => Promise<void>;
}

const BAD_TEXT: readonly [string, string][] = [
  ["a NUL", "t\u0000x"],
  ["a lone high surrogate", "t\ud800x"],
  ["a lone low surrogate", "\udc00"],
];

function cyclic(): unknown {
  const o: Record<string, unknown> = { a: 1 };
  o.self = o;
  return o;
}

/** Dispatch values no store keeps as given (with the path the answer names). */
const NOT_JSON: readonly [string, () => unknown][] = [
  ["a bigint", () => 10n],
  ["a cycle", cyclic],
  ["NaN", () => NaN],
  ["a nested Infinity", () => ({ a: [1, Infinity] })],
  ["a Map", () => new Map([["k", 1]])],
  ["a nested undefined member", () => ({ a: undefined })],
];

const code = (r: { ok: boolean; error?: { code: string } }) => r.ok ? "ok" : r.error!.code;

async function begin(s: RecoveryUnderTest, turnId: string, effectIds = ["e1"]) {
  await s.grant("alice", turnId);
  const w = new TurnRecovery({ ...s.seams });
  const r = await w.beginTurn({ conversationId: "c1", turnId, principal: "alice", effectIds });
  assert.ok(r.ok, `beginTurn ${turnId}: ${JSON.stringify(r)}`);
  return w;
}

async function effectOf(store: RecoveryStore, turnId: string): Promise<EffectRecord | null> {
  return await store.readEffect(turnId, "e1");
}

/** The recovery cases. */
export const RECOVERY_CASES: readonly ContractCase<RecoveryUnderTest>[] = [
  ...BAD_TEXT.map(([what, bad]): ContractCase<RecoveryUnderTest> => ({
    name: `an id with ${what} is invalid-request before any store call`,
    run: async (s) => {
      const w = new TurnRecovery({ ...s.seams });
      const begun = await w.beginTurn({
        conversationId: "c1",
        turnId: bad,
        principal: "alice",
        effectIds: ["e1"],
      });
      assert.equal(code(begun), "invalid-request");
      const other = await w.beginTurn({
        conversationId: "c1",
        turnId: `ok-${what.length}`,
        principal: bad,
        effectIds: [bad],
      });
      assert.equal(code(other), "invalid-request");
      const run = await w.runEffect({
        turnId: bad,
        effectId: "e1",
        principal: "alice",
        dispatch: () => 1,
      });
      assert.equal(code(run), "invalid-request");
    },
  })),
  ...NOT_JSON.map(([what, value], i): ContractCase<RecoveryUnderTest> => ({
    name: `a dispatch resolving with ${what}: reconcile (dispatch-error), the effect unknown`,
    run: async (s) => {
      const turnId = `nj${i}`;
      const w = await begin(s, turnId);
      let dispatched = 0;
      const r = await w.runEffect({
        turnId,
        effectId: "e1",
        principal: "alice",
        dispatch: () => (dispatched++, value()),
      });
      assert.equal(dispatched, 1);
      assert.ok(r.ok, JSON.stringify(r));
      assert.ok(
        r.value.status === "needs-reconciliation" && r.value.action === "reconcile" &&
          r.value.reason === "dispatch-error",
        JSON.stringify(r.value),
      );
      assert.match(r.value.detail ?? "", /not JSON data/);
      assert.equal((await effectOf(s.seams.store, turnId))?.state, "unknown");
      const t = await w.inspect(turnId);
      assert.ok(t.ok && t.value.turn.status === "needs-reconciliation", JSON.stringify(t));
      // The host reconciles with JSON data; nothing runs again.
      const again = await w.runEffect({
        turnId,
        effectId: "e1",
        principal: "alice",
        dispatch: () => (dispatched++, 2),
      });
      assert.ok(again.ok && again.value.status === "needs-reconciliation");
      const rec = await w.reconcile({
        turnId,
        effectId: "e1",
        principal: "alice",
        outcome: { ok: true, value: { charged: "10" } },
      });
      assert.ok(rec.ok, JSON.stringify(rec));
      assert.equal(dispatched, 1);
      assert.deepEqual((await effectOf(s.seams.store, turnId))?.outcome, {
        ok: true,
        value: { charged: "10" },
      });
    },
  })),
  {
    name:
      "reconcile with a value that is not JSON data is invalid-request; the effect is untouched",
    run: async (s) => {
      const turnId = "rnj";
      const w = await begin(s, turnId);
      const r = await w.runEffect({
        turnId,
        effectId: "e1",
        principal: "alice",
        dispatch: () => Promise.reject(new Error("boom")),
      });
      assert.ok(r.ok && r.value.status === "needs-reconciliation");
      const before = await effectOf(s.seams.store, turnId);
      for (const [, value] of NOT_JSON) {
        const rec = await w.reconcile({
          turnId,
          effectId: "e1",
          principal: "alice",
          outcome: { ok: true, value: value() },
        });
        assert.equal(code(rec), "invalid-request");
      }
      for (const [, bad] of BAD_TEXT) {
        const rec = await w.reconcile({
          turnId,
          effectId: "e1",
          principal: "alice",
          outcome: { ok: false, error: bad },
        });
        assert.equal(code(rec), "invalid-request");
        const nr = await w.recordNotRun({
          turnId,
          effectId: "e1",
          principal: "alice",
          evidence: bad,
        });
        assert.equal(code(nr), "invalid-request");
      }
      assert.deepEqual(await effectOf(s.seams.store, turnId), before);
      const fine = await w.reconcile({
        turnId,
        effectId: "e1",
        principal: "alice",
        outcome: { ok: true, value: undefined },
      });
      assert.ok(fine.ok, JSON.stringify(fine));
    },
  },
  {
    name: "a cancel reason with a NUL or a lone surrogate is invalid-request; the turn runs on",
    run: async (s) => {
      const turnId = "cr";
      const w = await begin(s, turnId);
      for (const [, bad] of BAD_TEXT) {
        assert.equal(
          code(await w.cancel({ turnId, principal: "alice", reason: bad })),
          "invalid-request",
        );
      }
      const t = await w.inspect(turnId);
      assert.ok(t.ok && t.value.turn.status === "running");
    },
  },
];

/** An interaction store under test. */
export interface InteractionsUnderTest {
  readonly store: InteractionStore;
  close(): Promise<void>;
}

const ME: InteractionAuthority = {
  conversationId: "conv-1",
  principalId: "user-1",
  tenantId: "tenant-1",
  customerId: "cust-1",
  publicOwnerId: "owner-1",
};
const SCHEMA = { id: "pick", revision: 1 };
const pick = z.object({ optionId: z.enum(["a", "b"]) });

function resolver(store: InteractionStore): InteractionResolver {
  return new InteractionResolver({
    store,
    schemas: (r) => (r.id === SCHEMA.id ? pick : undefined),
  });
}

/** The interactions cases. */
export const INTERACTION_CASES: readonly ContractCase<InteractionsUnderTest>[] = [
  ...BAD_TEXT.map(([what, bad], i): ContractCase<InteractionsUnderTest> => ({
    name: `an authority field with ${what} is invalid-request before any store call`,
    run: async (s) => {
      const w = resolver(s.store);
      for (const field of ["tenantId", "principalId", "conversationId"] as const) {
        const opened = await w.open({
          id: `c${i}-${field}`,
          card: { prompt: "?" },
          authority: { ...ME, [field]: bad },
          schema: SCHEMA,
        });
        assert.equal(code(opened), "invalid-request", `${field}: ${JSON.stringify(opened)}`);
      }
      const id = `ok${i}`;
      assert.ok((await w.open({ id, card: { prompt: "?" }, authority: ME, schema: SCHEMA })).ok);
      assert.equal(code(await w.read(id, { ...ME, tenantId: bad })), "invalid-request");
      assert.equal(
        code(await w.cancel(id, { kind: "system", actorId: "reaper", tenantId: bad })),
        "invalid-request",
      );
      assert.equal(code(await w.cancel(id, ME, { reason: bad })), "invalid-request");
      assert.equal(code(await w.updateMetadata(id, ME, { k: bad })), "invalid-request");
      assert.equal(code(await w.updateMetadata(id, ME, { [bad]: "v" })), "invalid-request");
      const read = await w.read(id, ME);
      assert.ok(read.ok && read.value.status === "pending", JSON.stringify(read));
    },
  })),
];
