/**
 * The host store as `TurnRecovery` sees it: every answer is checked (shape,
 * and that a record belongs to the turn/effect asked for). A malformed
 * answer is treated like a throw: a read becomes `store-unavailable`, a
 * write an uncertain acknowledgement that is read back. Nothing malformed is
 * ever trusted or returned.
 *
 * @module
 */
import { isRecord } from "../_internal/guards.ts";
import { isEffectRecord, isTurnRecord } from "./_records.ts";
import type { AdmitOutcome, RecoveryStore } from "./types.ts";

function malformed(what: string): never {
  throw new TypeError(`the store returned a malformed ${what}`);
}

function checkCas<A>(r: unknown, valid: (x: unknown) => boolean, what: string, guarded = false): A {
  if (!isRecord(r)) return malformed(`${what} CAS answer`);
  if (r.ok === true && valid(r.record)) return r as A;
  if (r.ok === false && r.code === "unauthorized" && guarded) return r as A;
  // A conflict without `current` is accepted (callers re-read); a wrong record is not.
  if (r.ok === false && r.code === "conflict" && (r.current == null || valid(r.current))) {
    return r as A;
  }
  return malformed(`${what} CAS answer`);
}

/** True when the host store offers the admission fence (never throws). */
export function hasFence(store: unknown): boolean {
  try {
    return typeof (store as RecoveryStore | undefined)?.admitDispatch === "function";
  } catch {
    return false;
  }
}

/** `store` with every answer checked; `admitDispatch` always present (callers check {@link hasFence}). */
export function checkedStore(store: RecoveryStore): Required<RecoveryStore> {
  return {
    readTurn: async (turnId) => {
      const t = await store.readTurn(turnId);
      return t === null || isTurnRecord(t, turnId) ? t : malformed("turn record");
    },
    casTurn: async (turnId, expected, next, guard) =>
      checkCas(
        await (guard === undefined
          ? store.casTurn(turnId, expected, next)
          : store.casTurn(turnId, expected, next, guard)),
        (x) => isTurnRecord(x, turnId),
        "turn",
        guard !== undefined,
      ),
    readEffect: async (turnId, effectId) => {
      const e = await store.readEffect(turnId, effectId);
      return e === null || isEffectRecord(e, turnId, effectId) ? e : malformed("effect record");
    },
    casEffect: async (turnId, effectId, expected, next) =>
      checkCas(
        await store.casEffect(turnId, effectId, expected, next),
        (x) => isEffectRecord(x, turnId, effectId),
        "effect",
      ),
    admitDispatch: async (request): Promise<AdmitOutcome> => {
      const a = await store.admitDispatch!(request);
      if (isRecord(a)) {
        if (a.admitted === true && isEffectRecord(a.record, request.turnId, request.effectId)) {
          return a as AdmitOutcome;
        }
        if (a.admitted === false && typeof a.reason === "string") return a as AdmitOutcome;
      }
      return malformed("admission answer");
    },
  };
}
