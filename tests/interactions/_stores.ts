/**
 * Test-only stores: deliberately broken adapter instances (each breaks one
 * rule written on `InteractionStore`) that the conformance kit and the
 * resolver suite must name, and harnesses over them.
 *
 * @module
 */
import { type LockRequest, LockTable } from "../../src/recovery/lock_table.ts";
import {
  type FenceRefusal,
  type InteractionAuthority,
  type InteractionCaller,
  type InteractionRecordV1,
  type InteractionStore,
  isSystemCaller,
  MemoryInteractionDatabase,
  MemoryInteractionStore,
  type StoreRead,
  type TransactCallback,
  type TransactCommit,
  type TransactDecision,
  type TransactRequest,
  type WorkflowTransition,
} from "../../interactions.ts";
import type { Result } from "../../src/result.ts";
import {
  type InteractionStoreHarness,
  memoryInteractionHarness,
  type SteppingClock,
  steppingClock,
} from "../../src/interactions/testing.ts";

/** The planted bugs. */
export type Flaw =
  | "unfenced-read-then-write"
  | "no-authority-recheck"
  | "accepts-after-expiry"
  | "follows-clock-back"
  | "per-instance-lock"
  | "ack-not-persisted"
  | "authority-before-fence"
  | "revocation-between-check-and-write"
  | "two-step-transition"
  | "conflict-without-current"
  | "system-grant-any-tenant"
  | "system-grant-cached"
  | "system-grant-unlocked"
  | "no-next-validation";

export const FLAWS: readonly Flaw[] = [
  "unfenced-read-then-write",
  "no-authority-recheck",
  "accepts-after-expiry",
  "follows-clock-back",
  "per-instance-lock",
  "ack-not-persisted",
  "authority-before-fence",
  "revocation-between-check-and-write",
  "two-step-transition",
  "conflict-without-current",
  "system-grant-any-tenant",
  "system-grant-cached",
  "system-grant-unlocked",
  "no-next-validation",
];

/** Checks, then (a round trip later, holding nothing) calls back and writes unconditionally. */
class UnfencedReadThenWrite extends MemoryInteractionStore {
  protected override transactLocks(): LockRequest[] {
    return [];
  }
  protected override async commitDecision<T>(
    id: string,
    decision: TransactDecision<T> & { readonly kind: "write" },
  ) {
    await new Promise((r) => setTimeout(r, 0)); // the round trip between check and write
    return super.commitDecision(id, decision);
  }
}

/** The fence ignores revocations (reads still check them). */
class NoAuthorityRecheck extends MemoryInteractionStore {
  protected override fenceAuthorized(): boolean {
    return true;
  }
}

/** The fence ignores `expiresAt`. */
class AcceptsAfterExpiry extends MemoryInteractionStore {
  protected override fenceNow(): number {
    return Number.NEGATIVE_INFINITY;
  }
}

/** Judges expiry by the raw clock source, which may step back (no clamp). */
class FollowsClockBack extends MemoryInteractionStore {
  constructor(database: MemoryInteractionDatabase, readonly raw: SteppingClock) {
    super({ database });
  }
  protected override fenceNow(): number {
    return this.raw.now();
  }
  override async read(id: string, caller: InteractionCaller) {
    const r = await super.read(id, caller);
    return r.ok ? { ...r, now: this.raw.now() } : r;
  }
}

/** Locks in a table private to this adapter instance (an in-process mutex). */
class PerInstanceLock extends MemoryInteractionStore {
  readonly #mine = new LockTable();
  protected override lockTable(): LockTable {
    return this.#mine;
  }
}

/** Acknowledges writes from an instance-local cache never written to the database. */
class AckNotPersisted extends MemoryInteractionStore {
  readonly #rows = new Map<string, string>();
  protected override readRow(id: string): InteractionRecordV1 | undefined {
    const row = this.#rows.get(id);
    return row === undefined ? super.readRow(id) : JSON.parse(row);
  }
  protected override commitRow(id: string, text: string): void {
    this.#rows.set(id, text);
  }
}

/** Checks the caller's authority before the transaction, then trusts that check (no authority lock). */
class AuthorityBeforeFence extends MemoryInteractionStore {
  override transact<T>(
    request: TransactRequest,
    fn: TransactCallback<T>,
  ): Promise<Result<TransactCommit<T>, FenceRefusal>> {
    const row = this.database.rows.get(request.id);
    const bound: InteractionAuthority | undefined = row === undefined
      ? undefined
      : JSON.parse(row).authority;
    if (bound !== undefined && !this.database.authorizes(bound, request.caller)) {
      return Promise.resolve({ ok: false, error: { code: "unauthorized", message: "revoked" } });
    }
    return super.transact(request, fn);
  }
  protected override transactLocks(request: TransactRequest): LockRequest[] {
    return [{ key: ["row", request.id], mode: "exclusive" }];
  }
  protected override fenceAuthorized(): boolean {
    return true; // "already checked"
  }
}

/** Reads the grant inside the transaction, but without locking it. */
class RevocationBetweenCheckAndWrite extends MemoryInteractionStore {
  protected override transactLocks(request: TransactRequest): LockRequest[] {
    return [{ key: ["row", request.id], mode: "exclusive" }];
  }
}

/** Writes the record, then (a separate step a crash can separate) the transition. */
class TwoStepTransition extends MemoryInteractionStore {
  protected override async commitDecision<T>(
    id: string,
    decision: TransactDecision<T> & { readonly kind: "write" },
  ) {
    const text = JSON.stringify(decision.next);
    this.commitRow(id, text, null);
    await this.step();
    const transition = decision.transition === null ? null : JSON.stringify(decision.transition);
    if (transition !== null) this.database.outbox.push(transition);
    return {
      record: JSON.parse(text) as InteractionRecordV1,
      transition: transition === null ? null : JSON.parse(transition) as WorkflowTransition,
    };
  }
}

/** State refusals without the current record. */
class ConflictWithoutCurrent extends MemoryInteractionStore {
  override async transact<T>(
    request: TransactRequest,
    fn: TransactCallback<T>,
  ): Promise<Result<TransactCommit<T>, FenceRefusal>> {
    const r = await super.transact(request, fn);
    if (r.ok || !("current" in r.error)) return r;
    const { current: _dropped, ...rest } = r.error;
    return { ok: false, error: rest as FenceRefusal };
  }
}

/** Looks a system grant up by actor id only (the tenant column forgotten in the WHERE clause). */
class SystemGrantAnyTenant extends MemoryInteractionStore {
  #anyTenant(actorId: string): boolean {
    for (const k of this.database.systemGrants) if (k.split("\u0000")[0] === actorId) return true;
    return false;
  }
  protected override fenceAuthorized(
    bound: InteractionAuthority,
    caller: InteractionCaller,
  ): boolean {
    return isSystemCaller(caller)
      ? this.#anyTenant(caller.actorId)
      : super.fenceAuthorized(bound, caller);
  }
  override async read(id: string, caller: InteractionCaller): Promise<StoreRead> {
    if (!isSystemCaller(caller)) return await super.read(id, caller);
    const record = this.peek(id);
    if (!record) return { ok: false, code: "not-found" };
    return this.#anyTenant(caller.actorId) && caller.tenantId === record.authority.tenantId
      ? { ok: true, record, now: this.now() }
      : { ok: false, code: "unauthorized" };
  }
}

/** Caches a positive system grant per adapter instance (never rechecked under the fence). */
class SystemGrantCached extends MemoryInteractionStore {
  readonly #seen = new Set<string>();
  protected override fenceAuthorized(
    bound: InteractionAuthority,
    caller: InteractionCaller,
  ): boolean {
    if (!isSystemCaller(caller)) return super.fenceAuthorized(bound, caller);
    const key = `${caller.actorId}|${bound.tenantId}`;
    if (this.#seen.has(key)) return true;
    const ok = super.fenceAuthorized(bound, caller);
    if (ok) this.#seen.add(key);
    return ok;
  }
}

/** Reads the system grant without FOR SHARE (the user's grant is still locked). */
class SystemGrantUnlocked extends MemoryInteractionStore {
  protected override transactLocks(request: TransactRequest): LockRequest[] {
    return isSystemCaller(request.caller)
      ? [{ key: ["row", request.id], mode: "exclusive" }]
      : super.transactLocks(request);
  }
}

/** Writes whatever `next` the callback returned (nextRecordProblem never consulted). */
class NoNextValidation extends MemoryInteractionStore {
  readonly #sent = new Map<string, InteractionRecordV1>();
  override transact<T>(
    request: TransactRequest,
    fn: TransactCallback<T>,
  ): Promise<Result<TransactCommit<T>, FenceRefusal>> {
    return super.transact(request, async (cur, ctx) => {
      const d = await fn(cur, ctx);
      if (d.kind !== "write") return d;
      this.#sent.set(request.id, d.next);
      // What the reference check sees is made to pass; the original is what gets written.
      return {
        ...d,
        next: {
          ...d.next,
          v: 1,
          id: cur.id,
          revision: cur.revision + 1,
          authority: cur.authority,
          createdAt: cur.createdAt,
        },
      };
    });
  }
  protected override commitDecision<T>(
    id: string,
    decision: TransactDecision<T> & { readonly kind: "write" },
  ) {
    const sent = this.#sent.get(id) ?? decision.next;
    this.#sent.delete(id);
    return super.commitDecision(id, { ...decision, next: sent });
  }
}

/** A harness over the reference store (optionally with a round trip per step). */
export function memoryHarness(pause?: () => Promise<void>): InteractionStoreHarness {
  return memoryInteractionHarness({ pause });
}

/** A harness whose adapter instances have `flaw`. */
export function flawedHarness(flaw: Flaw, pause?: () => Promise<void>): InteractionStoreHarness {
  const clock = steppingClock();
  return memoryInteractionHarness({
    clock,
    pause,
    makeStore: (database, p): InteractionStore => {
      const o = { database, pause: p };
      switch (flaw) {
        case "unfenced-read-then-write":
          return new UnfencedReadThenWrite(o);
        case "no-authority-recheck":
          return new NoAuthorityRecheck(o);
        case "accepts-after-expiry":
          return new AcceptsAfterExpiry(o);
        case "follows-clock-back":
          return new FollowsClockBack(database, clock);
        case "per-instance-lock":
          return new PerInstanceLock(o);
        case "ack-not-persisted":
          return new AckNotPersisted(o);
        case "authority-before-fence":
          return new AuthorityBeforeFence(o);
        case "revocation-between-check-and-write":
          return new RevocationBetweenCheckAndWrite(o);
        case "two-step-transition":
          return new TwoStepTransition(o);
        case "conflict-without-current":
          return new ConflictWithoutCurrent(o);
        case "system-grant-any-tenant":
          return new SystemGrantAnyTenant(o);
        case "system-grant-cached":
          return new SystemGrantCached(o);
        case "system-grant-unlocked":
          return new SystemGrantUnlocked(o);
        case "no-next-validation":
          return new NoNextValidation(o);
      }
    },
  });
}
