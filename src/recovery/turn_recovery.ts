/**
 * {@link TurnRecovery}: exactly-once tool effects over the host's CAS store,
 * reconciliation of unknown outcomes, cancel-then-abort and restart recovery.
 *
 * @module
 */
import { isRecord } from "../_internal/guards.ts";
import { err, ok, type Result } from "../result.ts";
import { clip, describe, MAX_DETAIL_LENGTH } from "./_describe.ts";
import { fields } from "./_request.ts";
import type { TurnStatus } from "../v1/types.ts";
import { type RecoveryProfile, requireCapability, turnRecoveryProfile } from "./profile.ts";
import type {
  AbortSeam,
  AdmitOutcome,
  AuthoritySeam,
  CasOutcome,
  EffectOutcome,
  EffectRecord,
  RecoveryAction,
  RecoveryError,
  RecoveryErrorCode,
  RecoveryStore,
  TurnRecord,
} from "./types.ts";

/** Longest accepted id (turn, conversation, effect, principal), in UTF-16 code units. */
export const MAX_RECOVERY_ID_LENGTH = 512;
/** Most effects one turn may declare. */
export const MAX_TURN_EFFECTS = 1024;

/** Why a {@link TurnRecovery.runEffect} call returned `needs-reconciliation`. */
export type NeedsReconciliationReason =
  /** The launched work rejected: its external outcome is unknown. */
  | "dispatch-error"
  /** The claim CAS threw: it may or may not have committed. Nothing was launched by this call. */
  | "uncertain-claim-ack"
  /** `admitDispatch` threw before invoking launch: admission may have been marked. */
  | "uncertain-admission"
  /** The effect was admitted by another call whose result is not stored (in flight or lost). */
  | "admitted-elsewhere"
  /** The stored effect is `unknown`: only {@link TurnRecovery.reconcile} resolves it. */
  | "outcome-unknown";

/** Successful answer of {@link TurnRecovery.runEffect}. */
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
    readonly reason: NeedsReconciliationReason;
    /** Plain-text detail (e.g. the dispatch error message). */
    readonly detail?: string;
  };

/** Answer of {@link TurnRecovery.cancel}. */
export interface CancelOutcome {
  /** The committed cancelled turn record. */
  readonly turn: TurnRecord;
  /** True when the turn was already cancelled (the abort hook is still invoked). */
  readonly alreadyCancelled: boolean;
  /** Effects admitted and not completed when read after the abort: in flight or unknown. */
  readonly inFlight: readonly string[];
  /** Message of an abort hook failure, if it threw. The cancellation stays committed. */
  readonly abortError?: string;
}

/** Answer of {@link TurnRecovery.reconcile}. */
export interface ReconcileOutcome {
  /** The stored effect record after reconciliation. */
  readonly record: EffectRecord;
  /** False when the effect was already completed (nothing written). */
  readonly changed: boolean;
  /** Turn status after reconciliation (`running` again once no effect is unknown). */
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
  /** Effects never admitted: they may run. */
  readonly pending: readonly string[];
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
  /** The caller's current authority, asked at every fence. */
  readonly authority: AuthoritySeam;
  /** Host execution abort hook; required for {@link TurnRecovery.runEffect} and cancellation aborts. */
  readonly abort?: AbortSeam;
  /** Capability profile; defaults to {@link turnRecoveryProfile}. */
  readonly profile?: RecoveryProfile;
  /** Identifies this worker in claim tokens (opaque). Defaults to a random id. */
  readonly workerId?: string;
  /** Bound on CAS retries after conflicts, per call. Default 16. */
  readonly maxAttempts?: number;
}

function refuse(
  code: RecoveryErrorCode,
  message: string,
  extra: Omit<RecoveryError, "code" | "message"> = {},
): { readonly ok: false; readonly error: RecoveryError } {
  return err({ code, message, ...extra });
}

function validId(id: unknown): id is string {
  return typeof id === "string" && id.length > 0 && id.length <= MAX_RECOVERY_ID_LENGTH;
}

function isTurnRecord(x: unknown, turnId: string): x is TurnRecord {
  return isRecord(x) && x.turnId === turnId && typeof x.conversationId === "string" &&
    typeof x.status === "string" && Number.isSafeInteger(x.revision) &&
    Array.isArray(x.effectIds);
}

function isEffectRecord(x: unknown, turnId: string, effectId: string): x is EffectRecord {
  return isRecord(x) && x.turnId === turnId && x.effectId === effectId &&
    typeof x.state === "string" && Number.isSafeInteger(x.revision);
}

/**
 * A usable stored outcome. `value` may be absent: a JSON store drops
 * `value: undefined` (a tool that returned nothing), and that is still a result.
 */
function isOutcome(x: unknown): x is EffectOutcome {
  return isRecord(x) && (x.ok === true || (x.ok === false && typeof x.error === "string"));
}

/** A completed record whose stored outcome is usable (reuse it, never re-run). */
function hasOutcome(
  e: EffectRecord | null | undefined,
): e is EffectRecord & { readonly outcome: EffectOutcome } {
  return e?.state === "completed" && isOutcome(e.outcome);
}

/** Admitted without a usable stored outcome: in flight, unknown, or unreadable. */
function unresolved(e: EffectRecord | null): boolean {
  return e !== null && e.state !== "claimed" && !hasOutcome(e);
}

/** The run answer for a stored completion found by the worker holding claim `token`. */
function storedRun(
  e: EffectRecord & { readonly outcome: EffectOutcome },
  token: string,
): EffectRun {
  return {
    status: "completed",
    outcome: e.outcome,
    reused: e.reconciled === true || e.claimToken !== token,
  };
}

/** Result of {@link TurnRecovery}'s turn status CAS loop. */
type StatusChange =
  /** Committed by this call (or read back after a lost acknowledgement). */
  | { readonly kind: "changed"; readonly turn: TurnRecord }
  /** Already in the target status: nothing written. */
  | { readonly kind: "already"; readonly turn: TurnRecord }
  /** In a status the change does not apply to: left alone. */
  | { readonly kind: "other"; readonly turn: TurnRecord }
  | { readonly kind: "missing" }
  | { readonly kind: "read-failed"; readonly error: string }
  /** The CAS threw and the read-back does not show the target status. */
  | { readonly kind: "uncertain"; readonly error: string }
  | { readonly kind: "contention" };

/**
 * A private copy of a caller's outcome (each field read once), or `null`
 * unless it is `{ ok: true, value }` (own `value`) or `{ ok: false, error: string }`;
 * `null` too when reading it throws.
 */
function copyOutcome(raw: unknown): EffectOutcome | null {
  try {
    if (!isRecord(raw)) return null;
    const ok = raw.ok;
    if (ok === true) return Object.hasOwn(raw, "value") ? { ok: true, value: raw.value } : null;
    const error = ok === false ? raw.error : undefined;
    return typeof error === "string" ? { ok: false, error } : null;
  } catch {
    return null;
  }
}

/** `f()`'s value, or the text of what it threw. */
async function attempt<T>(
  f: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  try {
    return { ok: true, value: await f() };
  } catch (e) {
    return { ok: false, error: describe(e) };
  }
}

function malformed(what: string): never {
  throw new TypeError(`the store returned a malformed ${what}`);
}

function checkCas<R>(
  r: unknown,
  valid: (x: unknown) => boolean,
  what: string,
): CasOutcome<R> {
  if (!isRecord(r)) return malformed(`${what} CAS answer`);
  if (r.ok === true && valid(r.record)) return r as CasOutcome<R>;
  // A conflict without `current` is accepted (callers re-read); a wrong record is not.
  if (r.ok === false && (r.current == null || valid(r.current))) return r as CasOutcome<R>;
  return malformed(`${what} CAS answer`);
}

/**
 * The host store as {@link TurnRecovery} sees it: every answer is checked
 * (shape, and that a record belongs to the turn/effect asked for). A
 * malformed answer is treated like a throw: a read becomes
 * `store-unavailable`, a write an uncertain acknowledgement that is read
 * back. Nothing malformed is ever trusted or returned.
 */
function checkedStore(store: RecoveryStore): RecoveryStore {
  const checked: RecoveryStore = {
    readTurn: async (turnId) => {
      const t = await store.readTurn(turnId);
      return t === null || isTurnRecord(t, turnId) ? t : malformed("turn record");
    },
    casTurn: async (turnId, expected, next) =>
      checkCas<TurnRecord>(
        await store.casTurn(turnId, expected, next),
        (x) => isTurnRecord(x, turnId),
        "turn",
      ),
    readEffect: async (turnId, effectId) => {
      const e = await store.readEffect(turnId, effectId);
      return e === null || isEffectRecord(e, turnId, effectId) ? e : malformed("effect record");
    },
    casEffect: async (turnId, effectId, expected, next) =>
      checkCas<EffectRecord>(
        await store.casEffect(turnId, effectId, expected, next),
        (x) => isEffectRecord(x, turnId, effectId),
        "effect",
      ),
  };
  // Always present here; TurnRecovery checks the host store itself for the fence.
  checked.admitDispatch = async (request) => {
    const a = await store.admitDispatch!(request);
    if (isRecord(a)) {
      if (a.admitted === true && isEffectRecord(a.record, request.turnId, request.effectId)) {
        return a;
      }
      if (a.admitted === false && typeof a.reason === "string") return a;
    }
    return malformed("admission answer");
  };
  return checked;
}

/** True when the host store offers the admission fence (never throws). */
function hasFence(store: unknown): boolean {
  try {
    return typeof (store as RecoveryStore | undefined)?.admitDispatch === "function";
  } catch {
    return false;
  }
}

function isProfile(p: unknown): p is RecoveryProfile {
  return isRecord(p) && typeof p.name === "string" && isRecord(p.capabilities);
}

/** Used in place of a malformed profile: it offers nothing (fail closed). */
const NO_CAPABILITIES: RecoveryProfile = Object.freeze({
  name: "invalid-profile",
  capabilities: Object.freeze({
    connectionReplay: false,
    persistedHistory: false,
    persistedDecisions: false,
    completedToolCheckpoints: false,
    interruptedTurnRecovery: false,
  }),
});

let workerCounter = 0;

/**
 * Exactly-once tool effects for one worker. Many instances (fresh workers,
 * other processes) may share one store: all coordination goes through the
 * store's CAS and admission fence, never through in-memory state.
 *
 * Guarantees, given seams that keep their contracts:
 * - only host-authorized effect ids (fixed at {@link beginTurn}) run;
 * - each effect is launched at most once, and only through the admission
 *   fence; a stored result is reused, never re-run;
 * - an uncertain acknowledgement or a dispatch error never leads to a
 *   redispatch: it returns `needs-reconciliation` until the host calls
 *   {@link reconcile} with a verified outcome;
 * - cancellation commits before the abort hook runs;
 * - every refusal is a typed {@link RecoveryError}; no method throws, even
 *   when a seam throws.
 *
 * @example
 * ```ts
 * import { MemoryRecoveryHost, TurnRecovery } from "@papercusp/chat-protocol/recovery";
 * const host = new MemoryRecoveryHost();
 * host.grant("alice", "t1");
 * const worker = new TurnRecovery(host.seams());
 * await worker.beginTurn({ conversationId: "c1", turnId: "t1", principal: "alice", effectIds: ["e1"] });
 * const run = await worker.runEffect({
 *   turnId: "t1", effectId: "e1", principal: "alice",
 *   dispatch: async (_signal) => ({ sent: true }),
 * });
 * // run.ok && run.value.status === "completed"
 * ```
 */
export class TurnRecovery {
  readonly #store: RecoveryStore;
  readonly #hostStore: RecoveryStore | undefined;
  readonly #authority: AuthoritySeam;
  readonly #abort: AbortSeam | undefined;
  readonly #profile: RecoveryProfile;
  readonly #workerId: string;
  readonly #maxAttempts: number;
  #claims = 0;

  /**
   * Build a worker over the host seams. Never throws: missing seams surface
   * as typed refusals when used, and a malformed `profile` offers nothing.
   */
  constructor(options: TurnRecoveryOptions) {
    const o: Partial<TurnRecoveryOptions> = typeof options === "object" && options !== null
      ? options
      : {};
    this.#hostStore = o.store;
    this.#store = checkedStore(o.store as RecoveryStore);
    this.#authority = o.authority as AuthoritySeam;
    this.#abort = o.abort;
    this.#profile = o.profile === undefined
      ? turnRecoveryProfile
      : isProfile(o.profile)
      ? o.profile
      : NO_CAPABILITIES;
    this.#workerId = typeof o.workerId === "string"
      ? o.workerId
      : `w${++workerCounter}-${Math.random().toString(36).slice(2)}`;
    const m = o.maxAttempts;
    this.#maxAttempts = typeof m === "number" && Number.isInteger(m) && m > 0 ? m : 16;
  }

  /** The profile this worker advertises. */
  get profile(): RecoveryProfile {
    return this.#profile;
  }

  async #authorized(principal: string, turnId: string, action: RecoveryAction): Promise<boolean> {
    try {
      return (await this.#authority.check({ principal, turnId, action })) === true;
    } catch {
      return false;
    }
  }

  /**
   * Read the turn, and check `effectId` (when given) is one of its
   * host-authorized effects. Refuses `store-unavailable`, `unknown-turn`,
   * `unknown-effect`.
   */
  async #readTurn(turnId: string, effectId?: string): Promise<Result<TurnRecord, RecoveryError>> {
    const at = effectId === undefined ? { turnId } : { turnId, effectId };
    const read = await attempt(() => this.#store.readTurn(turnId));
    if (!read.ok) return refuse("store-unavailable", read.error, at);
    const turn = read.value;
    if (!turn) return refuse("unknown-turn", `no turn ${turnId}`, at);
    if (effectId !== undefined && !turn.effectIds.includes(effectId)) {
      return refuse(
        "unknown-effect",
        `effect ${effectId} is not host-authorized for this turn`,
        at,
      );
    }
    return ok(turn);
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
    if (!await this.#authorized(principal, turnId, "begin")) {
      return refuse("unauthorized", "caller may not begin this turn", { turnId });
    }
    const draft = { turnId, conversationId, status: "running" as const, effectIds: [...seen] };
    try {
      const r = await this.#store.casTurn(turnId, 0, draft);
      if (r.ok) return ok(r.record);
      return refuse("turn-exists", `turn ${turnId} already exists`, { turnId });
    } catch (e) {
      const back = await attempt(() => this.#store.readTurn(turnId));
      if (
        back.ok && back.value && back.value.revision === 1 &&
        back.value.conversationId === conversationId &&
        back.value.effectIds.length === effectIds.length &&
        back.value.effectIds.every((id, i) => id === effectIds[i])
      ) {
        return ok(back.value);
      }
      return refuse("checkpoint-write-failed", `turn create not confirmed: ${describe(e)}`, {
        turnId,
        uncertain: true,
      });
    }
  }

  /**
   * Run one host-authorized effect exactly once.
   *
   * Reads the effect: a stored outcome is returned (`reused: true`); an
   * admitted or unknown one returns `needs-reconciliation` (never
   * redispatched), and so does any record it cannot use (a completion
   * without a readable outcome, an unrecognised state): nothing is claimed
   * over it. Only an absent or `claimed` record is claimed by CAS; then it
   * asks the store's
   * admission fence, which launches `dispatch(signal)` exactly once with the
   * host execution's signal; the work is awaited outside the fence and its
   * value stored by CAS. A `launch` call after `admitDispatch` settled (or a
   * second one) is ignored: it never dispatches. A rejected dispatch marks the effect `unknown` and
   * the turn `needs-reconciliation`.
   *
   * Refuses (typed): `invalid-request`, `unauthorized`, `unknown-turn`,
   * `unknown-effect` (an id not fixed at {@link beginTurn}, e.g.
   * model-supplied), `turn-not-running`, `admission-unavailable` (store has
   * no `admitDispatch`, no abort seam, or no execution signal), `admission-contract-violated`,
   * `contention`, `store-unavailable` (the store threw on a read or answered a
   * malformed record, or a record of another turn/effect), and `checkpoint-write-failed`
   * (carrying the unpersisted `outcome`) when the completion write failed
   * and the read-back does not show it stored.
   */
  async runEffect(request: {
    readonly turnId: string;
    readonly effectId: string;
    readonly principal: string;
    /** Starts the effect; receives the host execution's signal. */
    readonly dispatch: (signal: AbortSignal) => unknown;
  }): Promise<Result<EffectRun, RecoveryError>> {
    const { turnId, effectId, principal, dispatch } = fields(request, [
      "turnId",
      "effectId",
      "principal",
      "dispatch",
    ]);
    if (!validId(turnId) || !validId(effectId) || !validId(principal)) {
      return refuse("invalid-request", "turnId, effectId and principal must be non-empty ids");
    }
    if (typeof dispatch !== "function") {
      return refuse("invalid-request", "dispatch must be a function", { turnId, effectId });
    }
    const store = this.#store;
    const at = { turnId, effectId };
    if (!hasFence(this.#hostStore) || !this.#abort) {
      return refuse(
        "admission-unavailable",
        "the host supplies no admission fence or abort seam: dispatch refused",
        at,
      );
    }
    if (!await this.#authorized(principal, turnId, "run")) {
      return refuse("unauthorized", "caller may not run effects of this turn", at);
    }
    const turnRead = await this.#readTurn(turnId, effectId);
    if (!turnRead.ok) return turnRead;
    const turn = turnRead.value;
    let signal: AbortSignal;
    try {
      signal = this.#abort.signalFor(turnId);
      if (!(signal instanceof AbortSignal)) throw new TypeError("not an AbortSignal");
    } catch (e) {
      return refuse("admission-unavailable", `no host execution signal: ${describe(e)}`, at);
    }
    for (let n = 0; n < this.#maxAttempts; n++) {
      const effRead = await attempt(() => store.readEffect(turnId, effectId));
      if (!effRead.ok) return refuse("store-unavailable", effRead.error, at);
      const eff = effRead.value;
      if (hasOutcome(eff)) return ok({ status: "completed", outcome: eff.outcome, reused: true });
      if (eff?.state === "admitted") {
        return ok({ status: "needs-reconciliation", reason: "admitted-elsewhere" });
      }
      if (eff && eff.state !== "claimed") {
        // `unknown`, a completion without a readable outcome, or a state this
        // version does not know: the effect may have run. Never claim over it.
        return ok({
          status: "needs-reconciliation",
          reason: "outcome-unknown",
          detail: eff.state === "unknown"
            ? eff.reason
            : `stored effect state '${clip(String(eff.state), 64)}' has no usable outcome`,
        });
      }
      // Advisory only: the snapshot may be stale. The fence decides.
      if (turn.status !== "running") {
        return refuse("turn-not-running", `turn is ${turn.status}`, { ...at, status: turn.status });
      }
      const token = `${this.#workerId}#${++this.#claims}`;
      let claim: EffectRecord;
      try {
        const r = await store.casEffect(turnId, effectId, eff ? eff.revision : 0, {
          turnId,
          effectId,
          state: "claimed",
          claimToken: token,
        });
        if (!r.ok) continue;
        claim = r.record;
      } catch {
        return ok({ status: "needs-reconciliation", reason: "uncertain-claim-ack" });
      }
      let launches = 0;
      let fenceOpen = true;
      let work: Promise<unknown> | undefined;
      const launch = () => {
        launches++;
        // A fence that relaunches, or calls launch after it settled (outside
        // the fence, possibly after a refusal or a cancel), violates its
        // contract: never dispatch twice, never dispatch late.
        if (launches > 1 || !fenceOpen) return;
        try {
          work = Promise.resolve(dispatch(signal));
        } catch (e) {
          work = Promise.reject(e);
        }
        work.catch(() => {});
      };
      let admission: AdmitOutcome | undefined;
      try {
        admission = await store.admitDispatch!({
          turnId,
          effectId,
          claimRevision: claim.revision,
          principal,
          launch,
        });
      } catch {
        admission = undefined;
      } finally {
        fenceOpen = false;
      }
      if (!work) {
        if (!admission) {
          return ok({ status: "needs-reconciliation", reason: "uncertain-admission" });
        }
        if (admission.admitted) {
          return refuse(
            "admission-contract-violated",
            "admitDispatch admitted without invoking launch",
            at,
          );
        }
        if (admission.reason === "stale-claim") continue;
        if (admission.reason === "unauthorized") {
          return refuse("unauthorized", "authority revoked at the admission fence", at);
        }
        if (admission.reason === "unknown-turn") {
          return refuse("unknown-turn", `no turn ${turnId}`, at);
        }
        return refuse(
          "turn-not-running",
          `admission refused: turn is ${admission.status ?? "not running"}`,
          {
            ...at,
            status: admission.status,
          },
        );
      }
      const violated = launches > 1 || (admission !== undefined && !admission.admitted);
      const admittedRevision = admission?.admitted ? admission.record.revision : claim.revision + 1;
      const settled = await work.then(
        (value) => ({ ok: true as const, value }),
        (e) => ({ ok: false as const, error: describe(e) }),
      );
      if (!settled.ok) {
        await this.#markUnknown(turnId, effectId, admittedRevision, token, "dispatch-error");
        if (violated) {
          return refuse("admission-contract-violated", "admission fence violated its contract", at);
        }
        return ok({
          status: "needs-reconciliation",
          reason: "dispatch-error",
          detail: settled.error,
        });
      }
      const outcome: EffectOutcome = { ok: true, value: settled.value };
      const stored = await this.#complete(turnId, effectId, admittedRevision, token, outcome);
      if (violated && stored.ok) {
        return refuse("admission-contract-violated", "admission fence violated its contract", {
          ...at,
          outcome,
        });
      }
      return stored;
    }
    return refuse("contention", `gave up after ${this.#maxAttempts} conflicting attempts`, at);
  }

  async #complete(
    turnId: string,
    effectId: string,
    expectedRevision: number,
    token: string,
    outcome: EffectOutcome,
  ): Promise<Result<EffectRun, RecoveryError>> {
    const store = this.#store;
    const at = { turnId, effectId };
    let expected = expectedRevision;
    for (let n = 0; n < this.#maxAttempts; n++) {
      let writeError: string | undefined;
      try {
        const r = await store.casEffect(turnId, effectId, expected, {
          turnId,
          effectId,
          state: "completed",
          claimToken: token,
          outcome,
        });
        if (r.ok) return ok({ status: "completed", outcome, reused: false });
        const cur = r.current;
        if (hasOutcome(cur)) return ok(storedRun(cur, token));
        // Marked unknown (e.g. by a restart scan) while we still hold the verified value.
        if (
          cur && cur.claimToken === token && (cur.state === "unknown" || cur.state === "admitted")
        ) {
          expected = cur.revision;
          continue;
        }
        return refuse("checkpoint-write-failed", "completion conflicts with another writer", {
          ...at,
          outcome,
          uncertain: false,
        });
      } catch (e) {
        writeError = describe(e);
      }
      // Uncertain acknowledgement: read the stored result before returning.
      const back = await attempt(() => store.readEffect(turnId, effectId));
      if (back.ok && hasOutcome(back.value)) return ok(storedRun(back.value, token));
      return refuse("checkpoint-write-failed", `completion not stored: ${writeError}`, {
        ...at,
        outcome,
        uncertain: !back.ok,
      });
    }
    return refuse("contention", "completion kept conflicting", { ...at, outcome });
  }

  async #markUnknown(
    turnId: string,
    effectId: string,
    expectedRevision: number,
    token: string,
    reason: string,
  ): Promise<void> {
    try {
      await this.#store.casEffect(turnId, effectId, expectedRevision, {
        turnId,
        effectId,
        state: "unknown",
        claimToken: token,
        reason,
      });
    } catch {
      // Best effort: the effect stays `admitted`, which also forces reconciliation.
    }
    await this.#setTurnStatus(turnId, ["running"], "needs-reconciliation", reason);
  }

  /**
   * CAS the turn to `to` (recording `reason`) while `from(status)` holds,
   * retrying conflicts up to `maxAttempts`. A thrown CAS may hide a
   * committed change: it is read back once.
   */
  async #changeTurnStatus(
    turnId: string,
    from: (status: TurnStatus) => boolean,
    to: TurnStatus,
    reason: string,
  ): Promise<StatusChange> {
    for (let n = 0; n < this.#maxAttempts; n++) {
      const read = await attempt(() => this.#store.readTurn(turnId));
      if (!read.ok) return { kind: "read-failed", error: read.error };
      const t = read.value;
      if (!t) return { kind: "missing" };
      if (t.status === to) return { kind: "already", turn: t };
      if (!from(t.status)) return { kind: "other", turn: t };
      const { revision: _r, ...rest } = t;
      try {
        const r = await this.#store.casTurn(turnId, t.revision, { ...rest, status: to, reason });
        if (r.ok) return { kind: "changed", turn: r.record };
      } catch (e) {
        const back = await attempt(() => this.#store.readTurn(turnId));
        if (back.ok && back.value?.status === to) return { kind: "changed", turn: back.value };
        return { kind: "uncertain", error: describe(e) };
      }
    }
    return { kind: "contention" };
  }

  /** {@link #changeTurnStatus}, best effort: the turn record it read or wrote, else `null`. */
  async #setTurnStatus(
    turnId: string,
    from: readonly TurnStatus[],
    to: TurnStatus,
    reason: string,
  ): Promise<TurnRecord | null> {
    const c = await this.#changeTurnStatus(turnId, (s) => from.includes(s), to, reason);
    return "turn" in c ? c.turn : null;
  }

  /**
   * Cancel the turn: commit `cancelled` by CAS first, then invoke the abort
   * hook (never before the commit is confirmed). Cancelling an already
   * cancelled turn re-invokes the hook (the first canceller may have
   * crashed). Effects admitted before the commit are in flight: the host
   * aborts them; a completion they store is retained and does not reopen
   * the turn. Refuses `unauthorized`, `unknown-turn`, `turn-not-running`
   * (completed/failed), `cancel-uncertain` (the CAS acknowledgement was lost
   * and the read-back does not show the cancellation: the hook is NOT
   * invoked), `contention`, `store-unavailable`.
   */
  async cancel(request: {
    readonly turnId: string;
    readonly principal: string;
    readonly reason?: string;
  }): Promise<Result<CancelOutcome, RecoveryError>> {
    const { turnId, principal, reason: rawReason } = fields(request, [
      "turnId",
      "principal",
      "reason",
    ]);
    const reason = typeof rawReason === "string" ? clip(rawReason, MAX_DETAIL_LENGTH) : "cancelled";
    if (!validId(turnId) || !validId(principal)) {
      return refuse("invalid-request", "turnId and principal must be non-empty ids");
    }
    if (!await this.#authorized(principal, turnId, "cancel")) {
      return refuse("unauthorized", "caller may not cancel this turn", { turnId });
    }
    const store = this.#store;
    const c = await this.#changeTurnStatus(
      turnId,
      (s) => s !== "completed" && s !== "failed",
      "cancelled",
      reason,
    );
    switch (c.kind) {
      case "read-failed":
        return refuse("store-unavailable", c.error, { turnId });
      case "missing":
        return refuse("unknown-turn", `no turn ${turnId}`, { turnId });
      case "other":
        return refuse("turn-not-running", `turn is ${c.turn.status}`, {
          turnId,
          status: c.turn.status,
        });
      case "uncertain":
        return refuse("cancel-uncertain", `cancellation not confirmed: ${c.error}`, {
          turnId,
          uncertain: true,
        });
      case "contention":
        return refuse("contention", "cancellation kept conflicting", { turnId });
    }
    const committed = c.turn;
    const already = c.kind === "already";
    let abortError: string | undefined;
    if (this.#abort) {
      try {
        await this.#abort.abort(turnId, reason);
      } catch (e) {
        abortError = describe(e);
      }
    }
    const inFlight: string[] = [];
    for (const id of committed.effectIds) {
      const e = await attempt(() => store.readEffect(turnId, id));
      if (e.ok && unresolved(e.value)) {
        inFlight.push(id);
      }
    }
    const out: CancelOutcome = { turn: committed, alreadyCancelled: already, inFlight };
    return ok(abortError === undefined ? out : { ...out, abortError });
  }

  /**
   * Persist an outcome the host VERIFIED through its own effect/idempotency
   * lookup, through the same CAS seam. Only the host calls this; a model
   * retry never does. When no effect of the turn remains unknown or
   * admitted-without-result, a `needs-reconciliation` turn returns to
   * `running`; a cancelled turn stays cancelled. An already completed effect
   * is left unchanged (`changed: false`). Refuses `invalid-request`,
   * `unauthorized`, `unknown-turn`, `unknown-effect`, `contention`,
   * `store-unavailable`, `checkpoint-write-failed`.
   */
  async reconcile(request: {
    readonly turnId: string;
    readonly effectId: string;
    readonly principal: string;
    readonly outcome: EffectOutcome;
  }): Promise<Result<ReconcileOutcome, RecoveryError>> {
    const { turnId, effectId, principal, outcome: raw } = fields(request, [
      "turnId",
      "effectId",
      "principal",
      "outcome",
    ]);
    if (!validId(turnId) || !validId(effectId) || !validId(principal)) {
      return refuse("invalid-request", "turnId, effectId and principal must be non-empty ids");
    }
    const outcome = copyOutcome(raw);
    if (!outcome) {
      return refuse("invalid-request", "outcome must be {ok:true,value} or {ok:false,error}", {
        turnId,
        effectId,
      });
    }
    const at = { turnId, effectId };
    if (!await this.#authorized(principal, turnId, "reconcile")) {
      return refuse("unauthorized", "caller may not reconcile this turn", at);
    }
    const store = this.#store;
    const tr = await this.#readTurn(turnId, effectId);
    if (!tr.ok) return tr;
    const turn = tr.value;
    let record: EffectRecord | undefined;
    let changed = false;
    for (let n = 0; n < this.#maxAttempts && !record; n++) {
      const er = await attempt(() => store.readEffect(turnId, effectId));
      if (!er.ok) return refuse("store-unavailable", er.error, at);
      const cur = er.value;
      if (hasOutcome(cur)) {
        record = cur;
        break;
      }
      try {
        const r = await store.casEffect(turnId, effectId, cur ? cur.revision : 0, {
          turnId,
          effectId,
          state: "completed",
          claimToken: cur?.claimToken ?? "reconciled",
          outcome,
          reconciled: true,
        });
        if (r.ok) {
          record = r.record;
          changed = true;
        }
      } catch (e) {
        const back = await attempt(() => store.readEffect(turnId, effectId));
        if (back.ok && hasOutcome(back.value)) {
          record = back.value;
          changed = back.value.reconciled === true;
          break;
        }
        return refuse("checkpoint-write-failed", `reconciliation not stored: ${describe(e)}`, {
          ...at,
          outcome,
          uncertain: true,
        });
      }
    }
    if (!record) return refuse("contention", "reconciliation kept conflicting", at);
    let status: TurnStatus = turn.status;
    const t = await attempt(() => store.readTurn(turnId));
    if (t.ok && t.value) status = t.value.status;
    if (status === "needs-reconciliation" && await this.#noneUnresolved(turn)) {
      const after = await this.#setTurnStatus(
        turnId,
        ["needs-reconciliation"],
        "running",
        "reconciled",
      );
      if (after) status = after.status;
    }
    return ok({ record, changed, turnStatus: status });
  }

  async #noneUnresolved(turn: TurnRecord): Promise<boolean> {
    for (const id of turn.effectIds) {
      const e = await attempt(() => this.#store.readEffect(turn.turnId, id));
      if (!e.ok) return false;
      if (unresolved(e.value)) return false;
    }
    return true;
  }

  /**
   * Restart recovery for a turn whose previous execution is gone (call it
   * only once no worker of that execution is alive). Effects admitted without
   * a stored result are marked `unknown` (they were in flight at the
   * restart); the turn becomes `needs-reconciliation` if any effect is
   * unknown, else `running`. Completed effects are reported for reuse.
   * Refuses `restart-recovery-unsupported` when the profile does not offer
   * `interruptedTurnRecovery` (e.g. {@link connectionReplayOnlyProfile}),
   * and `unauthorized`, `unknown-turn`, `turn-not-running` (terminal or
   * cancelled), `store-unavailable`, `contention`.
   */
  async resume(request: {
    readonly turnId: string;
    readonly principal: string;
  }): Promise<Result<ResumeOutcome, RecoveryError>> {
    const { turnId, principal } = fields(request, ["turnId", "principal"]);
    const refusal = requireCapability(this.#profile, "interruptedTurnRecovery");
    if (refusal) {
      return refuse("restart-recovery-unsupported", refusal.message, { turnId });
    }
    if (!validId(turnId) || !validId(principal)) {
      return refuse("invalid-request", "turnId and principal must be non-empty ids");
    }
    if (!await this.#authorized(principal, turnId, "resume")) {
      return refuse("unauthorized", "caller may not resume this turn", { turnId });
    }
    const store = this.#store;
    const tr = await this.#readTurn(turnId);
    if (!tr.ok) return tr;
    const turn = tr.value;
    if (!["interrupted", "running", "needs-reconciliation"].includes(turn.status)) {
      return refuse("turn-not-running", `turn is ${turn.status}`, { turnId, status: turn.status });
    }
    const completed: string[] = [];
    const unknown: string[] = [];
    const pending: string[] = [];
    for (const id of turn.effectIds) {
      let settled = false;
      for (let n = 0; n < this.#maxAttempts && !settled; n++) {
        const er = await attempt(() => store.readEffect(turnId, id));
        if (!er.ok) return refuse("store-unavailable", er.error, { turnId, effectId: id });
        const e = er.value;
        if (!e || e.state === "claimed") {
          pending.push(id);
          settled = true;
        } else if (hasOutcome(e)) {
          completed.push(id);
          settled = true;
        } else if (e.state === "unknown") {
          unknown.push(id);
          settled = true;
        } else {
          try {
            const r = await store.casEffect(turnId, id, e.revision, {
              turnId,
              effectId: id,
              state: "unknown",
              claimToken: e.claimToken,
              reason: "in-flight-at-restart",
            });
            if (r.ok) {
              unknown.push(id);
              settled = true;
            }
          } catch {
            unknown.push(id); // either admitted or unknown: both need reconciliation
            settled = true;
          }
        }
      }
      if (!settled) return refuse("contention", "effect kept changing during resume", { turnId });
    }
    const target: TurnStatus = unknown.length > 0 ? "needs-reconciliation" : "running";
    const after = await this.#setTurnStatus(
      turnId,
      ["interrupted", "running", "needs-reconciliation"],
      target,
      "resumed",
    );
    if (!after || after.status !== target) {
      return refuse("contention", "turn status changed during resume", { turnId });
    }
    return ok({ turn: after, completed, needsReconciliation: unknown, pending });
  }

  /**
   * Read the turn and its effect records (no authority check, nothing
   * written). Refuses `invalid-request` (not a non-empty id of at most
   * {@link MAX_RECOVERY_ID_LENGTH} code units), `unknown-turn`,
   * `store-unavailable`.
   */
  async inspect(turnId: string): Promise<Result<TurnSnapshot, RecoveryError>> {
    if (!validId(turnId)) return refuse("invalid-request", "turnId must be a non-empty id");
    const tr = await this.#readTurn(turnId);
    if (!tr.ok) return tr;
    const effects: (EffectRecord | null)[] = [];
    for (const id of tr.value.effectIds) {
      const e = await attempt(() => this.#store.readEffect(turnId, id));
      if (!e.ok) return refuse("store-unavailable", e.error, { turnId, effectId: id });
      effects.push(e.value);
    }
    return ok({ turn: tr.value, effects });
  }
}
