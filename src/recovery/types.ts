/**
 * Records, host seams and refusals of `./recovery`.
 *
 * The package owns no database. The host supplies the seams and keeps their
 * contracts; {@link TurnRecovery} composes them into exactly-once tool
 * effects, leases, reconciliation, cancel-then-abort and restart recovery:
 *
 * - {@link AuthoritySeam}: the caller's CURRENT authorization, asked before
 *   every operation (never cached).
 * - {@link RecoveryStore}: atomic compare-and-swap (CAS) over the turn record
 *   and per-effect records by revision, plus `admitDispatch`, the admission
 *   fence shared with cancellation. What it must lock, and why, is written
 *   once, on {@link RecoveryStore}.
 * - {@link AbortSeam}: the host execution's `AbortSignal` and the hook that
 *   aborts it in this process.
 * - {@link CancelDeliverySeam}: delivers a committed cancellation to the
 *   other processes (Postgres: LISTEN/NOTIFY).
 * - `ReplayWindowSeam` (see `replay.ts`): the retained SSE/event window.
 *
 * Times are epoch milliseconds of the HOST clock ({@link TurnRecoveryOptions.now}),
 * never ISO strings.
 *
 * @module
 */
import type { Refusal } from "../result.ts";
import type { TurnStatus } from "../v1/types.ts";

/**
 * The durable record of one turn, stored by the host and changed only by
 * {@link RecoveryStore.casTurn}.
 */
export interface TurnRecord {
  /** Host-allocated turn id. */
  readonly turnId: string;
  /** Host-allocated conversation id. */
  readonly conversationId: string;
  /**
   * Positive integer, assigned by the store: 1 on creation, +1 on every
   * successful CAS. Admission does NOT change it (admission is per effect).
   */
  readonly revision: number;
  /** Lifecycle status (see `TurnStatus` in `src/v1/types.ts`). */
  readonly status: TurnStatus;
  /**
   * The host-authorized effect identities of this turn, fixed at
   * {@link TurnRecovery.beginTurn}. Any other id (for example one a model
   * produced) is refused with `unknown-effect`.
   */
  readonly effectIds: readonly string[];
  /** Plain-text reason of the last status change, if any. */
  readonly reason?: string;
}

/** The fields of a {@link TurnRecord} a caller writes; the store assigns `revision`. */
export type TurnDraft = Omit<TurnRecord, "revision">;

/**
 * State of one effect record:
 *
 * - `claimed`: a worker (the owner, `claimToken`) reserved the effect until
 *   `leaseUntil`. A claimed effect was never dispatched: dispatch starts only
 *   after an acknowledged admission. Another worker takes it over (by CAS)
 *   only once the lease has ended.
 * - `admitted`: the admission fence durably marked it and invoked the launch
 *   callback exactly once. Never launched again. While the owner's lease is
 *   live it is in flight; after it, the host must verify what happened
 *   ({@link TurnRecovery.reconcile} or {@link TurnRecovery.recordNotRun}).
 * - `completed`: a result (verified or produced by the launch) is stored and
 *   is reused, never re-run.
 * - `unknown`: the external outcome is unknown (dispatch error, restart while
 *   in flight); the host must reconcile it.
 * - `not-run`: the host verified that an admitted or unknown effect did NOT
 *   run ({@link TurnRecovery.recordNotRun}); it may be claimed again.
 */
export type EffectState = "claimed" | "admitted" | "completed" | "unknown" | "not-run";

/** A stored effect outcome: the tool's value, or a failure the host verified. */
export type EffectOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: string };

/** The durable record of one effect, changed by {@link RecoveryStore.casEffect} and admission. */
export interface EffectRecord {
  /** Host-allocated turn id. */
  readonly turnId: string;
  /** Host-authorized effect id (one of {@link TurnRecord.effectIds}). */
  readonly effectId: string;
  /** Positive integer assigned by the store: 1 on creation, +1 on every change. */
  readonly revision: number;
  /** Lifecycle state (see {@link EffectState}). */
  readonly state: EffectState;
  /** Opaque token of the worker that holds or held the claim (the lease owner). */
  readonly claimToken: string;
  /**
   * Epoch ms (host clock) until which the owner holds the effect: its claim
   * is not taken over, its admission not reconciled, before then. The owner
   * renews it while its dispatch runs. Absent (records of older versions):
   * counts as ended.
   */
  readonly leaseUntil?: number;
  /**
   * Claims taken on this effect so far, this one included (1 on the first
   * claim). {@link TurnRecoveryOptions.maxClaims} bounds it, so takeovers and
   * not-run cycles cannot burn revisions without end.
   */
  readonly claims?: number;
  /** Present when `state` is `completed`. */
  readonly outcome?: EffectOutcome;
  /** True when `outcome` was persisted by {@link TurnRecovery.reconcile}. */
  readonly reconciled?: boolean;
  /** Plain-text reason for `unknown`, or the host's evidence for `not-run`. */
  readonly reason?: string;
}

/** The fields of an {@link EffectRecord} a caller writes; the store assigns `revision`. */
export type EffectDraft = Omit<EffectRecord, "revision">;

/**
 * Answer of a CAS: the stored record after the write, or `conflict` carrying
 * the current record (`null` when absent) so the caller can decide without
 * another round trip.
 *
 * A CAS that THROWS (or rejects) means the acknowledgement is uncertain: the
 * write may or may not have committed. {@link TurnRecovery} then reads the
 * record back once instead of assuming either outcome, and never retries the
 * write blindly.
 */
export type CasOutcome<R> =
  | { readonly ok: true; readonly record: R }
  | { readonly ok: false; readonly code: "conflict"; readonly current: R | null };

/** Who acts: the turn's user (`principal` is the user) or the host itself (a service identity). */
export type ActorKind = "user" | "system";

/**
 * Authority a guarded turn CAS rechecks UNDER ITS LOCK (the same lock
 * admission takes), so a revocation cannot commit between the check and the
 * write. Used by cancel and expire.
 */
export interface TurnGuard {
  /** The user principal, or the host's service identity when `actor` is `system`. */
  readonly principal: string;
  /** Whose authority rows to read: the user's grant or the host's system grant. */
  readonly actor: ActorKind;
  /** What the write does. */
  readonly action: "cancel" | "expire";
}

/** Answer of {@link RecoveryStore.casTurn}: a {@link CasOutcome}, or `unauthorized` from a guard. */
export type TurnCasOutcome =
  | CasOutcome<TurnRecord>
  | { readonly ok: false; readonly code: "unauthorized" };

/** What the admission fence is asked to admit. */
export interface AdmitRequest {
  /** Turn of the effect. */
  readonly turnId: string;
  /** Host-authorized effect id. */
  readonly effectId: string;
  /** The revision of the claim this worker committed; admission requires it to be current. */
  readonly claimRevision: number;
  /** The user whose CURRENT authority the fence must recheck (under its lock). */
  readonly principal: string;
  /**
   * The owner's fresh lease end, epoch ms of the host clock (now + `leaseMs`
   * when `TurnRecovery` asked): the fence writes it into the `admitted` mark
   * (step 5), so the admitted owner starts with a full lease however long
   * the claim waited. Absent (older callers): keep the claim's `leaseUntil`.
   * A fence MUST write it when present (the conformance kit fails one that
   * does not). Ignoring it does not by itself dispatch twice (the owner
   * renews by CAS at its revision before dispatching, and that CAS conflicts
   * with any not-run written meanwhile), but the committed mark then carries
   * the claim's lease, which may already have ended while the claim waited
   * for the fence: until the renewal lands, other workers report the live
   * admission as lost and the host is asked to verify a dispatch that is
   * about to start.
   */
  readonly leaseUntil?: number;
  /**
   * The launch callback. The fence invokes it exactly once, after writing
   * the admission mark and before COMMIT, while still holding its locks, and
   * awaits what it returns before committing (TurnRecovery's returns nothing;
   * the conformance kit returns a promise to hold the fence open on purpose).
   * If it throws or rejects, the fence still commits the mark: the launch may
   * have started something. Calls after `admitDispatch` settled, and repeated
   * calls, are ignored by {@link TurnRecovery} and reported as
   * `admission-contract-violated` when it can tell.
   */
  readonly launch: () => void | PromiseLike<void>;
}

/** Why the admission fence refused (nothing was launched). */
export type AdmitRefusalReason =
  | "unauthorized"
  | "turn-not-running"
  | "stale-claim"
  | "unknown-turn";

/** Answer of {@link RecoveryStore.admitDispatch}. */
export type AdmitOutcome =
  | { readonly admitted: true; readonly record: EffectRecord }
  | {
    readonly admitted: false;
    readonly reason: AdmitRefusalReason;
    /** Turn status seen inside the fence, when relevant. */
    readonly status?: TurnStatus;
  };

/**
 * The host's session store. Every method may be asynchronous; every write is
 * an atomic compare-and-swap by revision (expected revision `0` = "create,
 * the record must not exist"). Conformance: `./recovery/testing`.
 *
 * ## What to lock, and why (the rules; docs/recovery.md adds a worked SQL sketch)
 *
 * 1. **Cancellation takes the admission lock.** `admitDispatch` runs in ONE
 *    transaction that locks the turn row (`SELECT … FOR UPDATE`), and
 *    `casTurn` takes the same row lock (a conditional `UPDATE … WHERE
 *    revision = $expected` does). So a cancel either commits before the
 *    admission's check (the admission then sees `cancelled` and refuses) or
 *    waits until the admission committed (the effect was launched before the
 *    cancel and is reported in flight). A fence that locks only the effect
 *    row, or launches after COMMIT, lets a launch follow a committed cancel.
 * 2. **Authority rows are read under the fence.** Inside that transaction,
 *    read the caller's grant with `FOR SHARE` (revocation deletes or updates
 *    that row, so it waits for the admission) and refuse `unauthorized` if it
 *    is gone. An authority check before the transaction, or an unlocked
 *    read, lets a revocation commit between check and launch. A guarded
 *    `casTurn` (cancel, expire: see {@link TurnGuard}) reads the user's or
 *    the system's grant the same way.
 * 3. **Conflicts carry the current record.** A CAS whose expected revision
 *    is stale answers `{ ok: false, code: "conflict", current }` with the row
 *    as it is now (`null` when absent), read in the same statement or
 *    transaction, so callers decide without another round trip.
 * 4. **Acknowledged means durable, and uncertain means reject.** Resolve only
 *    after COMMIT is acknowledged; a fresh adapter instance (another
 *    connection) must then read the write. If the COMMIT's outcome is unknown
 *    (dropped connection), reject: never retry a transaction that may have
 *    committed (for admission that would launch twice). A serialization
 *    failure or lock timeout that certainly rolled back may be retried inside
 *    the adapter, or rejected.
 * 5. **The mark survives the launch.** Write the `admitted` mark, invoke
 *    `launch` once, await it, then COMMIT even if it threw.
 *
 * A read followed by an unconditional update, or any lock or cache that
 * lives in the process instead of the database (an adapter's mutex field, a
 * module-level mutex, a per-connection grant cache), breaks exactly-once
 * across processes. The conformance kit runs one adapter instance per
 * simulated worker, which catches per-instance state; it runs them all in
 * one process, so module-scope state is only caught by the host's own
 * multi-process tests.
 */
export interface RecoveryStore {
  /** Current turn record, or `null`. */
  readTurn(turnId: string): Promise<TurnRecord | null>;
  /**
   * CAS over the turn record. With a `guard`, recheck the guard's authority
   * under the turn lock first and answer `{ ok: false, code: "unauthorized" }`
   * (writing nothing) when it is missing. Rejects when the acknowledgement
   * is uncertain.
   */
  casTurn(
    turnId: string,
    expectedRevision: number,
    next: TurnDraft,
    guard?: TurnGuard,
  ): Promise<TurnCasOutcome>;
  /** Current effect record, or `null`. */
  readEffect(turnId: string, effectId: string): Promise<EffectRecord | null>;
  /** CAS over one effect record. Rejects when the acknowledgement is uncertain. */
  casEffect(
    turnId: string,
    effectId: string,
    expectedRevision: number,
    next: EffectDraft,
  ): Promise<CasOutcome<EffectRecord>>;
  /**
   * The admission fence, in one transaction holding the turn lock (the lock
   * `casTurn` takes). Inside it, in this order:
   * 1. lock the turn row; a missing turn refuses `unknown-turn`;
   * 2. read the principal's user grant under the lock (`FOR SHARE`); refuse
   *    `unauthorized` when it is gone;
   * 3. check the turn is `running`, else refuse `turn-not-running` (with the status);
   * 4. check the effect is `claimed` at exactly `claimRevision`, else `stale-claim`;
   * 5. write the effect `admitted` (revision + 1, `leaseUntil` from the
   *    request when it has one, every other field kept);
   * 6. invoke `launch` exactly once and await it (a throw does not undo 5);
   * 7. COMMIT, then resolve `{ admitted: true, record }`.
   * On any failed check, refuse without launching. Optional so that
   * replay-only hosts can omit it: without it {@link TurnRecovery.runEffect}
   * refuses with `admission-unavailable`.
   */
  admitDispatch?(request: AdmitRequest): Promise<AdmitOutcome>;
}

/** What a caller wants to do, passed to {@link AuthoritySeam.check}. */
export type RecoveryAction = "begin" | "run" | "cancel" | "expire" | "reconcile" | "resume";

/**
 * The caller's current authorization. {@link TurnRecovery} asks before every
 * operation and never caches an answer; the store's fences recheck the same
 * rows under their locks. A throw counts as "not authorized".
 */
export interface AuthoritySeam {
  /**
   * `true` when `principal` may perform `action` on `turnId` now. `actor`
   * says whose authority to check: the user's (`principal` is the user), or
   * the host's own (`principal` is a service identity, e.g. a reaper). A
   * host must not grant a system action from a user's grant or the other
   * way round.
   */
  check(request: {
    readonly principal: string;
    readonly turnId: string;
    readonly action: RecoveryAction;
    readonly actor: ActorKind;
  }): boolean | Promise<boolean>;
}

/**
 * Host-owned execution in THIS process. `signalFor` returns the signal of
 * the host execution running the turn (the one the abort hook aborts), so
 * dispatched work is aborted through the host, not through a private
 * controller. Other processes are reached through {@link CancelDeliverySeam}.
 */
export interface AbortSeam {
  /** The host execution's signal for `turnId`. */
  signalFor(turnId: string): AbortSignal;
  /**
   * Abort the host execution of `turnId`. {@link TurnRecovery.cancel} calls
   * it only after the cancellation CAS has committed, and awaits it before
   * answering: a hook that never settles keeps `cancel()` pending (the
   * cancellation itself is already committed, so admissions are refused
   * meanwhile). Errors are reported in the cancel outcome, never thrown.
   */
  abort(turnId: string, reason: string): void | Promise<void>;
}

/** A committed cancellation (or expiry) as delivered between processes. */
export interface CancelNotice {
  /** The stopped turn. */
  readonly turnId: string;
  /** Revision of the committed turn record that stopped it. */
  readonly revision: number;
  /** Status it stopped with: `cancelled` (cancel) or `failed` (expire). */
  readonly status: "cancelled" | "failed";
  /** Plain-text reason, at most 1000 UTF-16 code units. */
  readonly reason: string;
}

/** A live subscription of {@link CancelDeliverySeam.subscribe}. */
export interface CancelSubscription {
  /** Stop receiving notices (idempotent). */
  unsubscribe(): void | Promise<void>;
}

/**
 * Delivers committed cancellations to every process, so the abort hook
 * reaches a dispatch running in another process. {@link TurnRecovery.cancel}
 * publishes after the cancel CAS committed; each process runs a
 * {@link CancelRelay} that subscribes, re-reads the turn from the store (a
 * notice is a hint, never authority) and aborts its own execution.
 *
 * Postgres: `publish` is `SELECT pg_notify('<channel>', $json)` (or a
 * `NOTIFY` issued by `casTurn` in the cancelling transaction, delivered at
 * COMMIT, with a no-op `publish`); `subscribe` is `LISTEN` on a dedicated
 * connection. Delivery may be lost (a process that was not listening):
 * {@link TurnRecovery} also re-reads the turn each time it renews a lease,
 * so a running dispatch learns of a cancel within one renewal interval.
 * `MemoryCancelDelivery` is the in-memory reference.
 */
export interface CancelDeliverySeam {
  /** Announce a committed cancellation. May reject: the cancel stays committed. */
  publish(notice: CancelNotice): void | Promise<void>;
  /** Receive notices from every process until unsubscribed. */
  subscribe(
    onNotice: (notice: CancelNotice) => void,
  ): CancelSubscription | Promise<CancelSubscription>;
}

/** Codes of {@link RecoveryError}. */
export type RecoveryErrorCode =
  | "unauthorized"
  | "invalid-request"
  | "unknown-turn"
  | "unknown-effect"
  | "turn-exists"
  | "turn-not-running"
  | "admission-unavailable"
  | "admission-contract-violated"
  | "contention"
  | "claim-limit"
  | "lease-live"
  | "effect-state"
  | "checkpoint-write-failed"
  | "cancel-uncertain"
  | "restart-recovery-unsupported"
  | "store-unavailable";

/**
 * A typed refusal of {@link TurnRecovery} (methods never throw). Extra fields
 * by code: `turn-not-running` carries `status`; `checkpoint-write-failed`
 * carries `uncertain` and, from `runEffect`/`reconcile`, the `outcome` that
 * could not be persisted (and `stored`, the outcome that is, when the effect
 * was reconciled by the host while this worker still ran it); `contention`
 * and `admission-contract-violated` from `runEffect` carry `outcome` when the
 * effect already ran and produced it; `cancel-uncertain` carries
 * `uncertain: true`; `lease-live` carries `retryAt` (the owner's lease end,
 * epoch ms: call again after it); `effect-state` carries `state`.
 */
export interface RecoveryError extends Refusal<RecoveryErrorCode> {
  /** Turn concerned, when known. */
  readonly turnId?: string;
  /** Effect concerned, when known. */
  readonly effectId?: string;
  /** Turn status seen (with `turn-not-running`). */
  readonly status?: TurnStatus;
  /** Effect state seen (with `effect-state`). */
  readonly state?: EffectState;
  /** The outcome the effect produced but this call could not confirm stored (see above). */
  readonly outcome?: EffectOutcome;
  /** The outcome stored instead (with `checkpoint-write-failed` after a host reconciliation). */
  readonly stored?: EffectOutcome;
  /** True when it is unknown whether the write committed (`false`: it did not). */
  readonly uncertain?: boolean;
  /** Epoch ms (host clock) after which the refused call may succeed (with `lease-live`). */
  readonly retryAt?: number;
  /**
   * The claim token of the worker that ran the effect (with
   * `checkpoint-write-failed` from `runEffect`): passing it to `reconcile`
   * or `recordNotRun` proves the caller speaks for the lease owner, so the
   * owner's live lease does not hold the resolution back.
   */
  readonly claimToken?: string;
}
