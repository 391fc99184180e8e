/**
 * The host store as `TurnRecovery` sees it: every call is attempted (a
 * rejection becomes `{ ok: false, error }` with its text) and every answer
 * is checked (shape, and that a record belongs to the turn/effect asked
 * for). A malformed answer is treated like a rejection: a read becomes
 * `store-unavailable`, a write an uncertain acknowledgement that is read
 * back. Nothing malformed is ever trusted or returned, and no call throws.
 *
 * @module
 */
import { isRecord } from "../_internal/guards.ts";
import { attempt, type Attempted } from "./_cas.ts";
import { isEffectRecord, isTurnRecord } from "./_records.ts";
import type {
  AdmitOutcome,
  AdmitRequest,
  CasOutcome,
  EffectDraft,
  EffectRecord,
  RecoveryStore,
  TurnCasOutcome,
  TurnDraft,
  TurnGuard,
  TurnRecord,
} from "./types.ts";

/**
 * The host store's calls, attempted and checked: each answers the store's
 * value or why there is none, and never rejects.
 */
export interface CheckedStore {
  /** {@link RecoveryStore.readTurn}, checked. */
  readTurn(turnId: string): Promise<Attempted<TurnRecord | null>>;
  /** {@link RecoveryStore.casTurn}, checked (`guard` passed only when given). */
  casTurn(
    turnId: string,
    expected: number,
    next: TurnDraft,
    guard?: TurnGuard,
  ): Promise<Attempted<TurnCasOutcome>>;
  /** {@link RecoveryStore.readEffect}, checked. */
  readEffect(turnId: string, effectId: string): Promise<Attempted<EffectRecord | null>>;
  /** {@link RecoveryStore.casEffect}, checked. */
  casEffect(
    turnId: string,
    effectId: string,
    expected: number,
    next: EffectDraft,
  ): Promise<Attempted<CasOutcome<EffectRecord>>>;
  /** {@link RecoveryStore.admitDispatch}, checked (callers check {@link hasFence} first). */
  admitDispatch(request: AdmitRequest): Promise<Attempted<AdmitOutcome>>;
}

function malformed(what: string): { ok: false; error: string } {
  return { ok: false, error: `the store returned a malformed ${what}` };
}

/** `r` when it is a well-formed answer (or a rejection's text), else a malformed one. */
function checked<T>(
  r: Attempted<unknown>,
  valid: (x: unknown) => boolean,
  what: string,
): Attempted<T> {
  if (!r.ok) return r;
  return valid(r.value) ? r as Attempted<T> : malformed(what);
}

function validCas(r: unknown, valid: (x: unknown) => boolean, guarded = false): boolean {
  if (!isRecord(r)) return false;
  if (r.ok === true) return valid(r.record);
  if (r.ok === false && r.code === "unauthorized") return guarded;
  // A conflict without `current` is accepted (callers re-read); a wrong record is not.
  return r.ok === false && r.code === "conflict" && (r.current == null || valid(r.current));
}

function validAdmission(a: unknown, request: AdmitRequest): boolean {
  if (!isRecord(a)) return false;
  if (a.admitted === true) return isEffectRecord(a.record, request.turnId, request.effectId);
  return a.admitted === false && typeof a.reason === "string";
}

/** True when the host store offers the admission fence (never throws). */
export function hasFence(store: unknown): boolean {
  try {
    return typeof (store as RecoveryStore | undefined)?.admitDispatch === "function";
  } catch {
    return false;
  }
}

/** `store` with every call attempted and every answer checked. */
export function checkedStore(store: RecoveryStore): CheckedStore {
  return {
    readTurn: async (turnId) =>
      checked(
        await attempt(() => store.readTurn(turnId)),
        (t) => t === null || isTurnRecord(t, turnId),
        "turn record",
      ),
    casTurn: async (turnId, expected, next, guard) =>
      checked(
        await attempt(() =>
          guard === undefined
            ? store.casTurn(turnId, expected, next)
            : store.casTurn(turnId, expected, next, guard)
        ),
        (r) => validCas(r, (x) => isTurnRecord(x, turnId), guard !== undefined),
        "turn CAS answer",
      ),
    readEffect: async (turnId, effectId) =>
      checked(
        await attempt(() => store.readEffect(turnId, effectId)),
        (e) => e === null || isEffectRecord(e, turnId, effectId),
        "effect record",
      ),
    casEffect: async (turnId, effectId, expected, next) =>
      checked(
        await attempt(() => store.casEffect(turnId, effectId, expected, next)),
        (r) => validCas(r, (x) => isEffectRecord(x, turnId, effectId)),
        "effect CAS answer",
      ),
    admitDispatch: async (request) =>
      checked(
        await attempt(() => store.admitDispatch!(request)),
        (a) => validAdmission(a, request),
        "admission answer",
      ),
  };
}
