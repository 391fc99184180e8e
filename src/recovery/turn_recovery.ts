/**
 * {@link TurnRecovery}: exactly-once tool effects over the host's CAS store,
 * with leases, reconciliation of unknown outcomes, verified "did not run"
 * records, cancel-then-abort (also across processes) and restart recovery.
 *
 * The algorithms live in private collaborators (`_run_effect.ts`,
 * `_resolve_effect.ts`, `_stop_turn.ts`, `_resume.ts`), which share one CAS
 * loop (`_cas.ts`).
 *
 * @module
 */
import { ok, type Result } from "../result.ts";
import type { TurnStatus } from "../v1/types.ts";
import { casLoop } from "./_cas.ts";
import { isTurnRecord, MAX_TURN_EFFECTS, refuse, validId } from "./_records.ts";
import { fields } from "./_request.ts";
import { resolveEffect } from "./_resolve_effect.ts";
import { resume } from "./_resume.ts";
import { readTurnFor, runEffect } from "./_run_effect.ts";
import { stopTurn } from "./_stop_turn.ts";
import { Worker } from "./_worker.ts";
import type { BackoffOptions } from "./_clock.ts";
import type { RecoveryProfile } from "./profile.ts";
import type {
  AbortSeam,
  ActorKind,
  AuthoritySeam,
  CancelDeliverySeam,
  EffectOutcome,
  EffectRecord,
  RecoveryError,
  RecoveryStore,
  TurnDraft,
  TurnRecord,
} from "./types.ts";

export { MAX_RECOVERY_ID_LENGTH, MAX_TURN_EFFECTS } from "./_records.ts";
export {
  DEFAULT_LEASE_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_CLAIMS,
  MAX_TIMER_MS,
} from "./_worker.ts";
export type { BackoffOptions } from "./_clock.ts";

/**
 * The `claimToken` {@link TurnRecovery.inspect}, {@link TurnRecovery.reconcile}
 * and {@link TurnRecovery.recordNotRun} show in place of the owner's token
 * (a token is an owner's proof of ownership; no answer prints one).
 */
export const REDACTED_CLAIM_TOKEN = "[redacted]";

/** The answer with its record's `claimToken` replaced by {@link REDACTED_CLAIM_TOKEN}. */
async function redactResolved(
  answer: Promise<Result<ReconcileOutcome, RecoveryError>>,
): Promise<Result<ReconcileOutcome, RecoveryError>> {
  const r = await answer;
  if (!r.ok) return r;
  return ok({ ...r.value, record: { ...r.value.record, claimToken: REDACTED_CLAIM_TOKEN } });
}

/**
 * `needs-reconciliation` reasons the host RESOLVES NOW: nobody is running
 * the effect any more, and only the host can tell what happened. It checks
 * its own records (the payment provider's idempotency log, …) and calls
 * {@link TurnRecovery.reconcile} (it ran: here is the outcome) or
 * {@link TurnRecovery.recordNotRun} (it verifiably did not run: claim it again).
 *
 * - `dispatch-error`: the dispatch rejected, or resolved with a value that is
 *   not JSON data (its `detail` names the first offending path); the
 *   effect is stored `unknown`.
 * - `outcome-unknown`: the stored effect is `unknown` (an earlier dispatch
 *   error, a restart) or unreadable.
 * - `owner-lost`: admitted, and its owner's lease ended without a result
 *   (the worker died or stalled after admission, before or after dispatching).
 */
export type ReconcileReason = "dispatch-error" | "outcome-unknown" | "owner-lost";

/**
 * `needs-reconciliation` reasons the host WAITS OUT: another worker may still
 * be running the effect, or this call cannot tell whether its own write
 * committed. Reconciling now would race the owner (its real result could
 * land after the host's guess). Call `runEffect` again after `retryAt`
 * (earlier is harmless): it then answers `completed`, a reconcile reason, or
 * claims the effect.
 *
 * - `in-flight`: admitted by another worker whose lease is live.
 * - `claimed-elsewhere`: claimed (not yet admitted) by another worker whose
 *   lease is live. Nothing has run.
 * - `uncertain-claim-ack`: this call's claim write lost its acknowledgement
 *   and could not be read back. Nothing was dispatched by this call.
 * - `uncertain-admission`: the admission fence lost its acknowledgement and
 *   could not be read back. Nothing was dispatched by this call (dispatch
 *   starts only after an acknowledged admission), so if the effect later
 *   reads as admitted under `claimToken`, {@link TurnRecovery.recordNotRun}
 *   with that token is safe at once.
 */
export type WaitReason =
  | "in-flight"
  | "claimed-elsewhere"
  | "uncertain-claim-ack"
  | "uncertain-admission";

/** Why a {@link TurnRecovery.runEffect} call returned `needs-reconciliation`. */
export type NeedsReconciliationReason = ReconcileReason | WaitReason;

/**
 * Successful answer of {@link TurnRecovery.runEffect}. A host branches on
 * `status`, then on `action` (`reconcile` now, or `wait` until `retryAt`),
 * then, for detail, on `reason`.
 */
export type EffectRun =
  | {
    readonly status: "completed";
    /** The stored outcome (the tool's value, or a verified failure). */
    readonly outcome: EffectOutcome;
    /** True when the outcome was already stored and nothing was dispatched by this call. */
    readonly reused: boolean;
  }
  | {
    readonly status: "needs-reconciliation";
    /** Resolve now with `reconcile` or `recordNotRun` (see {@link ReconcileReason}). */
    readonly action: "reconcile";
    readonly reason: ReconcileReason;
    /** Plain-text detail (e.g. the dispatch error message). */
    readonly detail?: string;
    /** The claim token of this call's own run, when it ran the effect. */
    readonly claimToken?: string;
  }
  | {
    readonly status: "needs-reconciliation";
    /** Do not resolve: call `runEffect` again after `retryAt` (see {@link WaitReason}). */
    readonly action: "wait";
    readonly reason: WaitReason;
    /** Epoch ms (host clock) by which the owner's lease ends. */
    readonly retryAt: number;
    /** Plain-text detail. */
    readonly detail?: string;
    /** With `uncertain-admission`: this call's claim token (see {@link WaitReason}). */
    readonly claimToken?: string;
  };

/** Answer of {@link TurnRecovery.cancel} and {@link TurnRecovery.expire}. */
export interface CancelOutcome {
  /** The committed stopped turn record (`cancelled`, or `failed` for expire). */
  readonly turn: TurnRecord;
  /** True when the turn was already cancelled (the abort hook and delivery are still invoked). */
  readonly alreadyCancelled: boolean;
  /** Effects admitted and not completed when read after the abort: in flight or unknown. */
  readonly inFlight: readonly string[];
  /** Message of an abort hook failure, if it threw. The stop stays committed. */
  readonly abortError?: string;
  /** Message of a cancel-delivery failure (other processes were not told). The stop stays committed. */
  readonly deliveryError?: string;
}

/** Answer of {@link TurnRecovery.reconcile} and {@link TurnRecovery.recordNotRun}. */
export interface ReconcileOutcome {
  /**
   * The stored effect record after the call, its `claimToken` shown as
   * {@link REDACTED_CLAIM_TOKEN} (as in {@link TurnRecovery.inspect}).
   */
  readonly record: EffectRecord;
  /** False when nothing was written (already completed, or already `not-run`). */
  readonly changed: boolean;
  /** Turn status after the call (`running` again once no effect is unresolved). */
  readonly turnStatus: TurnStatus;
}

/** Answer of {@link TurnRecovery.resume}. */
export interface ResumeOutcome {
  /** The committed turn record after the resume (`running` or `needs-reconciliation`). */
  readonly turn: TurnRecord;
  /** Effects with a stored outcome: reused, never re-run. */
  readonly completed: readonly string[];
  /** Effects whose outcome is unknown (including ones in flight at the restart). */
  readonly needsReconciliation: readonly string[];
  /** Effects never admitted, or verified not run, with claim budget left: they may run. */
  readonly pending: readonly string[];
  /**
   * Effects never admitted (or verified not run) whose claim budget
   * ({@link TurnRecoveryOptions.maxClaims}) is spent: `runEffect` refuses
   * them `claim-limit` until the host verifies they did not run and calls
   * {@link TurnRecovery.recordNotRun}, which resets the budget.
   */
  readonly claimLimited: readonly string[];
}

/** Snapshot returned by {@link TurnRecovery.inspect}. */
export interface TurnSnapshot {
  /** The turn record as read (nothing is written). */
  readonly turn: TurnRecord;
  /** Stored effect records in `effectIds` order (`null` = never claimed). */
  readonly effects: readonly (EffectRecord | null)[];
}

/** Options of {@link TurnRecovery}. */
export interface TurnRecoveryOptions {
  /** The host's CAS store (with `admitDispatch` for dispatch). */
  readonly store: RecoveryStore;
  /** The caller's current authority, asked before every operation. */
  readonly authority: AuthoritySeam;
  /** This process's execution abort hook; required for {@link TurnRecovery.runEffect} and cancellation aborts. */
  readonly abort?: AbortSeam;
  /** Cross-process cancel delivery: `cancel`/`expire` publish to it after their commit. */
  readonly cancelDelivery?: CancelDeliverySeam;
  /** Capability profile; defaults to {@link turnRecoveryProfile}. */
  readonly profile?: RecoveryProfile;
  /**
   * Identifies this worker in claim tokens (opaque; default a random id).
   * Each claim token is this id plus 128 random bits from
   * `crypto.getRandomValues`, so no other caller can guess it.
   */
  readonly workerId?: string;
  /** Bound on attempts (CAS conflicts, stale claims) per call. Default {@link DEFAULT_MAX_ATTEMPTS}. */
  readonly maxAttempts?: number;
  /**
   * Most claims one effect may take (lease takeovers included) before
   * `runEffect` refuses `claim-limit`. It bounds the revisions one effect
   * can burn without the host: the host's {@link TurnRecovery.recordNotRun}
   * (verified: it did not run) resets the count, so a spent budget is never
   * a permanent wedge. Default {@link DEFAULT_MAX_CLAIMS}.
   */
  readonly maxClaims?: number;
  /**
   * The host clock, epoch ms (default `Date.now`). Leases are written and
   * judged by it; every worker must use clocks that agree far better than
   * `leaseMs / 4` (ideally one clock: the database's; see `leaseMs`).
   * Readings are clamped so they never step back; a clock that throws,
   * answers a non-finite number, or answers less than `1e11` (a clock in
   * SECONDS: 1e11 ms is 1973) fails the call closed (`store-unavailable`).
   */
  readonly now?: () => number | Promise<number>;
  /**
   * Lease length, ms (default {@link DEFAULT_LEASE_MS}; a positive integer,
   * at most 2^31 - 1 = {@link MAX_TIMER_MS}, the longest timer delay: larger
   * values are clamped to it, anything else falls back to the default): how
   * long a claim or an admitted effect belongs to its worker after the last
   * renewal. Other workers wait it out before taking a claim over; the host
   * waits it out before reconciling an admitted effect or resuming the turn.
   *
   * The timing contract, which the library enforces on the owner's side:
   * - admission writes a fresh lease (now + `leaseMs`), and a dispatch
   *   starts only with at least half the lease left (else the owner renews
   *   by CAS first, or records its own `not-run` and claims again);
   * - renewals are timed from the lease actually left (every
   *   `min(renewEveryMs, left / 3)` ms);
   * - when a quarter of the lease is left without a confirmed renewal, the
   *   dispatch's signal aborts.
   * What the host must guarantee: the workers' `now` clocks disagree by less
   * than `leaseMs / 4` minus the time a dispatch needs to stop once its
   * signal aborts, and a worker's event loop does not stall for longer than
   * that either (a stalled process cannot run its timers). Under those
   * assumptions no other worker sees the lease ended (and so no
   * `owner-lost`, `reconcile`, `recordNotRun` or `resume` over it is
   * granted) while the owner's dispatch may still be running. A dispatch
   * that ignores its signal voids the guarantee: pass the effect id as an
   * idempotency key to the external system so a late request is a no-op.
   */
  readonly leaseMs?: number;
  /**
   * Lease renewal interval while a dispatch runs, ms of real time (timers),
   * default `leaseMs / 3`, clamped to `[0, leaseMs]`; `0` disables renewal
   * (a dispatch then owns the effect for the lease left at its start, and
   * its signal aborts when a quarter of it is left). Each renewal is one
   * CAS on the effect and one turn read (which also aborts this process's
   * execution of a turn found stopped: a lost cancel notice is caught
   * within one interval).
   */
  readonly renewEveryMs?: number;
  /** Jittered backoff between conflicting attempts (default 2 ms base, 100 ms cap). */
  readonly backoff?: BackoffOptions;
  /** Random source in `[0, 1)` for the jitter (default `Math.random`). */
  readonly random?: () => number;
}

/** The user or system actor of a host operation (default `user`). */
export interface ActorField {
  /**
   * `user` (default): `principal` is the turn's user. `system`: `principal`
   * is the host's own service identity, checked against the host's system
   * grant (never the user's), so the server can act after the user's
   * authority was revoked.
   */
  readonly actor?: ActorKind;
}

/**
 * Exactly-once tool effects for one worker. Many instances (fresh workers,
 * other processes) may share one store: all coordination goes through the
 * store's CAS and admission fence, never through in-memory state.
 *
 * Guarantees, given seams that keep their contracts:
 * - only host-authorized effect ids (fixed at {@link TurnRecovery.beginTurn}) run;
 * - each effect is dispatched at most once, only after an acknowledged
 *   admission through the fence, and only while its worker's lease runs; a
 *   stored result is reused, never re-run;
 * - a claim is taken over only after its owner's lease ended; conflicts back
 *   off with jitter; one effect takes at most `maxClaims` claims;
 * - an uncertain acknowledgement or a dispatch error never leads to a
 *   redispatch: it returns `needs-reconciliation` with `action: "wait"` or
 *   `action: "reconcile"`; the host resolves reconcile reasons with
 *   {@link TurnRecovery.reconcile} or {@link TurnRecovery.recordNotRun},
 *   which refuse `lease-live` while an owner may still be running;
 * - cancellation commits (authority rechecked under the turn lock) before
 *   the abort hook runs, and is delivered to other processes;
 * - every refusal is a typed {@link RecoveryError}; no method throws, even
 *   when a seam throws.
 *
 * @example
 * ```ts
 * import { MemoryRecoveryHost, TurnRecovery } from "@papercusp/chat-protocol/recovery";
 * const host = new MemoryRecoveryHost();
 * await host.grant("alice", "t1");
 * const worker = new TurnRecovery(host.seams());
 * await worker.beginTurn({ conversationId: "c1", turnId: "t1", principal: "alice", effectIds: ["e1"] });
 * const run = await worker.runEffect({
 *   turnId: "t1", effectId: "e1", principal: "alice",
 *   dispatch: async (_signal) => ({ sent: true }),
 * });
 * if (run.ok && run.value.status === "needs-reconciliation" && run.value.action === "reconcile") {
 *   // verify with the external system, then worker.reconcile(...) or worker.recordNotRun(...)
 * }
 * ```
 */
export class TurnRecovery {
  readonly #w: Worker;

  /**
   * Build a worker over the host seams. Never throws: missing seams surface
   * as typed refusals when used, and a malformed `profile` offers nothing.
   */
  constructor(options: TurnRecoveryOptions) {
    this.#w = new Worker(options);
  }

  /** The profile this worker advertises. */
  get profile(): RecoveryProfile {
    return this.#w.profile;
  }

  /**
   * Create the turn record (`running`) with its host-authorized effect ids.
   * Refuses `unauthorized`, `invalid-request` (bad/duplicate ids, more than
   * {@link MAX_TURN_EFFECTS}), `turn-exists`, or `checkpoint-write-failed`
   * when the create's acknowledgement was lost and the read-back does not
   * show it.
   */
  async beginTurn(request: {
    readonly conversationId: string;
    readonly turnId: string;
    readonly principal: string;
    readonly effectIds: readonly string[];
  }): Promise<Result<TurnRecord, RecoveryError>> {
    const w = this.#w;
    const { conversationId, turnId, principal, effectIds: rawIds } = fields(request, [
      "conversationId",
      "turnId",
      "principal",
      "effectIds",
    ]);
    if (!validId(conversationId) || !validId(turnId) || !validId(principal)) {
      return refuse(
        "invalid-request",
        "conversationId, turnId and principal must be non-empty ids",
      );
    }
    // Validate and use one private copy: the caller's array (or a proxy)
    // could answer differently on a second read.
    let effectIds: readonly unknown[];
    try {
      if (!Array.isArray(rawIds) || rawIds.length > MAX_TURN_EFFECTS) {
        return refuse(
          "invalid-request",
          `effectIds must be an array of at most ${MAX_TURN_EFFECTS}`,
        );
      }
      effectIds = Array.prototype.slice.call(rawIds);
    } catch {
      return refuse("invalid-request", "effectIds could not be read", { turnId });
    }
    const seen = new Set<string>();
    for (const id of effectIds) {
      if (!validId(id) || seen.has(id)) {
        return refuse("invalid-request", "effect ids must be unique non-empty ids", { turnId });
      }
      seen.add(id);
    }
    if (!await w.authorized(principal, turnId, "begin", "user")) {
      return refuse("unauthorized", "caller may not begin this turn", { turnId });
    }
    const ids = [...seen];
    const draft: TurnDraft = { turnId, conversationId, status: "running", effectIds: ids };
    const end = await casLoop<TurnRecord, TurnDraft, "exists">({
      ...w.turnCas(turnId),
      current: null,
      attempts: 2,
      decide: (cur) => (cur ? { done: "exists" } : { expected: 0, next: draft }),
      landed: (back) =>
        isTurnRecord(back, turnId) && back.revision === 1 &&
        back.conversationId === conversationId && back.effectIds.length === ids.length &&
        back.effectIds.every((id, i) => id === ids[i]),
    });
    if (end.kind === "written") return ok(end.record);
    if (end.kind === "uncertain") {
      return refuse("checkpoint-write-failed", `turn create not confirmed: ${end.error}`, {
        turnId,
        uncertain: true,
      });
    }
    return refuse("turn-exists", `turn ${turnId} already exists`, { turnId });
  }

  /**
   * Run one host-authorized effect exactly once.
   *
   * Reads the effect: a stored outcome is returned (`reused: true`); an
   * effect another worker holds under a live lease returns
   * `needs-reconciliation` with `action: "wait"`; an admitted effect whose
   * owner's lease ended, an `unknown` one, or a record this version cannot
   * use returns `action: "reconcile"` (never redispatched, nothing claimed
   * over it). Otherwise (absent, a claim whose lease ended, `not-run`) it
   * claims the effect by CAS with a lease, asks the store's admission fence
   * (which writes a fresh lease), and dispatches `dispatch(signal)` once the
   * admission is acknowledged and at least half the lease is left, while
   * renewing the lease; the value is stored by CAS. `signal` aborts when the
   * host execution's signal aborts, or when a quarter of the lease is left
   * without a confirmed renewal (see {@link TurnRecoveryOptions.leaseMs}):
   * the dispatch must then stop. A rejected dispatch marks the effect `unknown` and the
   * turn `needs-reconciliation`; so does a dispatch that resolves with a
   * value that is not JSON data (a bigint, a cycle, `NaN`, a `Map`, a class
   * instance…; `undefined` is no value and is fine): it ran, but no store
   * keeps that value as given, so the answer is `action: "reconcile"`,
   * reason `dispatch-error`, and nothing reaches the store. A `launch` call after `admitDispatch`
   * settled (or a second one) never dispatches.
   *
   * Refuses (typed): `invalid-request`, `unauthorized`, `unknown-turn`,
   * `unknown-effect` (an id not fixed at {@link TurnRecovery.beginTurn},
   * e.g. model-supplied), `turn-not-running`, `admission-unavailable` (store
   * has no `admitDispatch`, no abort seam, or no execution signal),
   * `admission-contract-violated`, `claim-limit`, `contention`,
   * `store-unavailable` (the store threw on a read or answered a malformed
   * record, or the host clock failed), and `checkpoint-write-failed`
   * (carrying the unpersisted `outcome` and this run's `claimToken`) when
   * the completion write failed and the read-back does not show it stored.
   */
  runEffect(request: {
    readonly turnId: string;
    readonly effectId: string;
    readonly principal: string;
    /** Starts the effect; its signal follows the host execution's and the lease (see above). */
    readonly dispatch: (signal: AbortSignal) => unknown;
  }): Promise<Result<EffectRun, RecoveryError>> {
    return runEffect(this.#w, request);
  }

  /**
   * Cancel the turn: commit `cancelled` by a guarded CAS first (the store
   * rechecks the actor's authority under the turn lock, the lock admission
   * takes), then invoke this process's abort hook, then publish to
   * {@link TurnRecoveryOptions.cancelDelivery} (other processes abort their
   * dispatches through their `CancelRelay`). Cancelling an already cancelled
   * turn re-invokes both (the first canceller may have crashed). Effects
   * admitted before the commit are in flight: the host aborts them; a
   * completion they store is retained and does not reopen the turn.
   * `actor: "system"` cancels with the host's own authority, e.g. after the
   * user's was revoked. Refuses `invalid-request`, `unauthorized`,
   * `unknown-turn`, `turn-not-running` (completed/failed),
   * `cancel-uncertain` (the CAS acknowledgement was lost and the read-back
   * does not show the cancellation: the hook is NOT invoked), `contention`,
   * `store-unavailable`.
   */
  cancel(
    request: {
      readonly turnId: string;
      readonly principal: string;
      /** Plain text, at most 1000 UTF-16 code units kept. */
      readonly reason?: string;
    } & ActorField,
  ): Promise<Result<CancelOutcome, RecoveryError>> {
    return stopTurn(this.#w, request, "cancel");
  }

  /**
   * Expire the turn (a host deadline passed): a SYSTEM action, committed as
   * status `failed` by a guarded CAS under the turn lock, then the abort
   * hook and cancel delivery, exactly like {@link TurnRecovery.cancel}.
   * `principal` is the host's service identity (checked with
   * `actor: "system"`). Refuses as `cancel` does, plus `invalid-request` for
   * `actor: "user"` and `turn-not-running` for a turn already completed,
   * failed or cancelled.
   */
  expire(request: {
    readonly turnId: string;
    readonly principal: string;
    /** Plain text, at most 1000 UTF-16 code units kept (default `expired`). */
    readonly reason?: string;
    /** Always `system` (the default). */
    readonly actor?: "system";
  }): Promise<Result<CancelOutcome, RecoveryError>> {
    return stopTurn(this.#w, request, "expire");
  }

  /**
   * Persist an outcome the host VERIFIED through its own effect/idempotency
   * lookup ("it ran, and this is what happened"), through the same CAS seam.
   * `outcome.value` must be JSON data or `undefined`, and `outcome.error`
   * text without NUL or a lone surrogate (refused `invalid-request` before
   * any store call otherwise, so every store agrees; the value stored is a
   * copy). Only the host calls this; a model retry never does. Refused
   * `lease-live` (with `retryAt`) while the effect is claimed or admitted
   * under another worker's live lease (a claimed owner may be about to
   * dispatch), unless `claimToken` is that owner's (from its
   * `checkpoint-write-failed`). When no effect of the turn remains
   * unresolved, a `needs-reconciliation` turn returns to `running`; a
   * cancelled turn stays cancelled. An already completed effect is left
   * unchanged (`changed: false`). Refuses `invalid-request`,
   * `unauthorized`, `unknown-turn`, `unknown-effect`, `lease-live`,
   * `contention`, `store-unavailable`, `checkpoint-write-failed`.
   */
  reconcile(
    request: {
      readonly turnId: string;
      readonly effectId: string;
      readonly principal: string;
      readonly outcome: EffectOutcome;
      /** The lease owner's claim token, when the caller speaks for it. */
      readonly claimToken?: string;
    } & ActorField,
  ): Promise<Result<ReconcileOutcome, RecoveryError>> {
    return redactResolved(resolveEffect(this.#w, request, "outcome"));
  }

  /**
   * Record that an admitted (or `unknown`) effect verifiably did NOT run
   * (the host checked the external system: no charge, no message), or
   * release a claim that was never admitted. The effect becomes `not-run`
   * with its claim budget reset (`claims: 0`, see
   * {@link TurnRecoveryOptions.maxClaims}) and may be claimed and
   * dispatched again, through the same CAS seam. Only the host calls this,
   * and only with evidence: recording "not run" for an effect that did run
   * runs it twice. Refused `lease-live` while a claim or admission is under
   * a live lease (unless `claimToken` is the owner's), and `effect-state`
   * for an effect that is completed (it ran) or was never claimed (nothing
   * to record). A `not-run` effect is left unchanged (`changed: false`)
   * unless its claim budget is spent (then the budget is reset). Turn
   * status as for `reconcile`.
   */
  recordNotRun(
    request: {
      readonly turnId: string;
      readonly effectId: string;
      readonly principal: string;
      /** What the host checked, stored as the record's `reason` (≤ 1000 code units). */
      readonly evidence?: string;
      /** The lease owner's claim token, when the caller speaks for it. */
      readonly claimToken?: string;
    } & ActorField,
  ): Promise<Result<ReconcileOutcome, RecoveryError>> {
    return redactResolved(resolveEffect(this.#w, request, "not-run"));
  }

  /**
   * Restart recovery for a turn whose previous execution is gone. Refused
   * `lease-live` (with `retryAt`, nothing written) while any admitted
   * effect's owner holds a live lease: that worker may still be running.
   * Otherwise effects admitted without a stored result are marked `unknown`
   * (they were in flight at the restart), each after judging its lease
   * again on the record the CAS replaces (an owner that renewed meanwhile
   * is alive: `lease-live`); the turn becomes
   * `needs-reconciliation` if any effect is unknown, else `running`.
   * Completed effects are reported for reuse; effects whose claim budget is
   * spent are reported in `claimLimited`, not `pending`. Refuses
   * `restart-recovery-unsupported` when the profile does not offer
   * `interruptedTurnRecovery` (e.g. {@link connectionReplayOnlyProfile}),
   * and `invalid-request`, `unauthorized`, `unknown-turn`,
   * `turn-not-running` (terminal or cancelled), `store-unavailable`,
   * `contention`.
   */
  resume(
    request: { readonly turnId: string; readonly principal: string } & ActorField,
  ): Promise<Result<ResumeOutcome, RecoveryError>> {
    return resume(this.#w, request);
  }

  /**
   * Read the turn and its effect records (no authority check, nothing
   * written). Each record's `claimToken` is replaced by
   * {@link REDACTED_CLAIM_TOKEN}: a claim token is the owner's proof that
   * lets it resolve its effect under its own live lease, so it is never
   * disclosed to a caller that is not the owner. Refuses `invalid-request`
   * (not a non-empty id of at most {@link MAX_RECOVERY_ID_LENGTH} code
   * units), `unknown-turn`, `store-unavailable`.
   */
  async inspect(turnId: string): Promise<Result<TurnSnapshot, RecoveryError>> {
    if (!validId(turnId)) return refuse("invalid-request", "turnId must be a non-empty id");
    const tr = await readTurnFor(this.#w, turnId);
    if (!tr.ok) return tr;
    const effects: (EffectRecord | null)[] = [];
    for (const id of tr.value.effectIds) {
      const e = await this.#w.store.readEffect(turnId, id);
      if (!e.ok) return refuse("store-unavailable", e.error, { turnId, effectId: id });
      effects.push(e.value && { ...e.value, claimToken: REDACTED_CLAIM_TOKEN });
    }
    return ok({ turn: tr.value, effects });
  }
}
