/**
 * Records, host seams and refusals of `./recovery`.
 *
 * The package owns no database. The host supplies four seams and keeps their
 * contracts; {@link TurnRecovery} composes them into exactly-once tool
 * effects, reconciliation, cancel-then-abort and restart recovery:
 *
 * - {@link AuthoritySeam}: the caller's CURRENT authorization, asked at every
 *   fence (never cached).
 * - {@link RecoveryStore}: atomic compare-and-swap (CAS) over the turn record
 *   and per-effect records by revision, plus `admitDispatch`, the admission
 *   fence shared with cancellation.
 * - {@link AbortSeam}: the host execution's `AbortSignal` and the hook that
 *   aborts it.
 * - `ReplayWindowSeam` (see `replay.ts`): the retained SSE/event window.
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
 * - `claimed`: a worker reserved the effect. A claim is a reservation, not a
 *   lease: any worker may supersede a never-admitted claim by CAS; the
 *   superseded worker's admission then fails on its stale claim revision.
 * - `admitted`: the admission fence durably marked it and invoked the launch
 *   callback exactly once. Never launched again.
 * - `completed`: a result (verified or produced by the launch) is stored and
 *   is reused, never re-run.
 * - `unknown`: the external outcome is unknown (dispatch error, restart while
 *   in flight); the host must reconcile it.
 */
export type EffectState = "claimed" | "admitted" | "completed" | "unknown";

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
  /** Opaque token of the worker that holds or held the claim. */
  readonly claimToken: string;
  /** Present when `state` is `completed`. */
  readonly outcome?: EffectOutcome;
  /** True when `outcome` was persisted by {@link TurnRecovery.reconcile}. */
  readonly reconciled?: boolean;
  /** Plain-text reason for `unknown`, e.g. `dispatch-error`. */
  readonly reason?: string;
}

/** The fields of an {@link EffectRecord} a caller writes; the store assigns `revision`. */
export type EffectDraft = Omit<EffectRecord, "revision">;

/**
 * Answer of a CAS: the stored record after the write, or `conflict` carrying
 * the current record (`null` when absent) so the caller can retry.
 *
 * A CAS that THROWS (or rejects) means the acknowledgement is uncertain: the
 * write may or may not have committed. {@link TurnRecovery} then reads the
 * record back instead of assuming either outcome.
 */
export type CasOutcome<R> =
  | { readonly ok: true; readonly record: R }
  | { readonly ok: false; readonly code: "conflict"; readonly current: R | null };

/** What the admission fence is asked to admit. */
export interface AdmitRequest {
  /** Turn of the effect. */
  readonly turnId: string;
  /** Host-authorized effect id. */
  readonly effectId: string;
  /** The revision of the claim this worker committed; admission requires it to be current. */
  readonly claimRevision: number;
  /** The caller whose CURRENT authority the fence must recheck. */
  readonly principal: string;
  /**
   * Starts the host execution of the effect. The fence invokes it exactly
   * once, after durably marking admission and before releasing the fence,
   * and only when admitting. It returns synchronously; the launched work is
   * awaited by {@link TurnRecovery} outside the fence. Calls after
   * `admitDispatch` settled, and repeated calls, are ignored by
   * {@link TurnRecovery} (they never dispatch) and reported as
   * `admission-contract-violated` when it can tell.
   */
  readonly launch: () => void;
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
 * the record must not exist"). Check and write must be one atomic step: a
 * read followed by an unconditional update, or a lock only one worker sees,
 * breaks exactly-once (the conformance kit in `testing.ts` checks this).
 */
export interface RecoveryStore {
  /** Current turn record, or `null`. */
  readTurn(turnId: string): Promise<TurnRecord | null>;
  /** CAS over the turn record. Throws/rejects when the acknowledgement is uncertain. */
  casTurn(
    turnId: string,
    expectedRevision: number,
    next: TurnDraft,
  ): Promise<CasOutcome<TurnRecord>>;
  /** Current effect record, or `null`. */
  readEffect(turnId: string, effectId: string): Promise<EffectRecord | null>;
  /** CAS over one effect record. Throws/rejects when the acknowledgement is uncertain. */
  casEffect(
    turnId: string,
    effectId: string,
    expectedRevision: number,
    next: EffectDraft,
  ): Promise<CasOutcome<EffectRecord>>;
  /**
   * The admission fence, under the SAME transaction/lock as cancellation
   * (a CAS of the turn record). Inside the fence, in this order:
   * 1. recheck the principal's current authority for the turn;
   * 2. check the turn is `running`;
   * 3. check the effect is `claimed` at exactly `claimRevision`;
   * 4. durably mark the effect `admitted` (revision + 1);
   * 5. invoke `launch` exactly once;
   * then release the fence. On any failed check, refuse without launching.
   * Optional so that replay-only hosts can omit it: without it
   * {@link TurnRecovery.runEffect} refuses with `admission-unavailable`.
   */
  admitDispatch?(request: AdmitRequest): Promise<AdmitOutcome>;
}

/** What a caller wants to do, passed to {@link AuthoritySeam.check}. */
export type RecoveryAction = "begin" | "run" | "cancel" | "reconcile" | "resume";

/**
 * The caller's current authorization. {@link TurnRecovery} asks before every
 * fence and never caches an answer; the admission fence rechecks again
 * inside. A throw counts as "not authorized".
 */
export interface AuthoritySeam {
  /** `true` when `principal` may perform `action` on `turnId` now. */
  check(request: {
    readonly principal: string;
    readonly turnId: string;
    readonly action: RecoveryAction;
  }): boolean | Promise<boolean>;
}

/**
 * Host-owned execution. `signalFor` returns the signal of the host execution
 * running the turn (the one the abort hook aborts), so dispatched work is
 * aborted through the host, not through a private controller.
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
  | "checkpoint-write-failed"
  | "cancel-uncertain"
  | "restart-recovery-unsupported"
  | "store-unavailable";

/**
 * A typed refusal of {@link TurnRecovery} (methods never throw). Extra fields
 * by code: `turn-not-running` carries `status`; `checkpoint-write-failed`
 * carries `uncertain` and, from `runEffect`/`reconcile`, the `outcome` that
 * could not be persisted; `contention` and `admission-contract-violated` from
 * `runEffect` carry `outcome` when the effect already ran and produced it;
 * `cancel-uncertain` carries `uncertain: true`.
 */
export interface RecoveryError extends Refusal<RecoveryErrorCode> {
  /** Turn concerned, when known. */
  readonly turnId?: string;
  /** Effect concerned, when known. */
  readonly effectId?: string;
  /** Turn status seen (with `turn-not-running`). */
  readonly status?: TurnStatus;
  /** The outcome the effect produced but this call could not confirm stored (see above). */
  readonly outcome?: EffectOutcome;
  /** True when it is unknown whether the write committed (`false`: it did not). */
  readonly uncertain?: boolean;
}
