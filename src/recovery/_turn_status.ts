/**
 * Turn status changes through the one CAS loop: cancel, expire, the
 * `needs-reconciliation` round trip, resume.
 *
 * @module
 */
import type { TurnStatus } from "../v1/types.ts";
import { casLoop } from "./_cas.ts";
import { unresolved } from "./_records.ts";
import type { Worker } from "./_worker.ts";
import type { TurnDraft, TurnGuard, TurnRecord } from "./types.ts";

/** How a status change ended. */
export type StatusChange =
  /** Committed by this call (or read back after a lost acknowledgement). */
  | { readonly kind: "changed"; readonly turn: TurnRecord }
  /** Already in the target status: nothing written. */
  | { readonly kind: "already"; readonly turn: TurnRecord }
  /** In a status the change does not apply to: left alone. */
  | { readonly kind: "other"; readonly turn: TurnRecord }
  | { readonly kind: "missing" }
  | { readonly kind: "unauthorized" }
  | { readonly kind: "read-failed"; readonly error: string }
  /** The CAS threw and the read-back does not show the target status. */
  | { readonly kind: "uncertain"; readonly error: string }
  | { readonly kind: "contention" };

/**
 * CAS the turn to `to` (recording `reason`) while `from(status)` holds,
 * retrying conflicts up to `maxAttempts` with backoff. With `guard`, the
 * store rechecks that authority under the turn lock.
 */
export async function changeTurnStatus(
  w: Worker,
  turnId: string,
  from: (status: TurnStatus) => boolean,
  to: TurnStatus,
  reason: string,
  guard?: TurnGuard,
): Promise<StatusChange> {
  type Stop = { readonly kind: "already" | "other"; readonly turn: TurnRecord } | {
    readonly kind: "missing";
  };
  const end = await casLoop<TurnRecord, TurnDraft, Stop>({
    ...w.turnCas(turnId),
    decide: (t) => {
      if (!t) return { done: { kind: "missing" } };
      if (t.status === to) return { done: { kind: "already", turn: t } };
      if (!from(t.status)) return { done: { kind: "other", turn: t } };
      const { revision, ...rest } = t;
      return { expected: revision, next: { ...rest, status: to, reason }, guard };
    },
    landed: (t) => t?.status === to,
  });
  switch (end.kind) {
    case "done":
      return end.value;
    case "written":
      return { kind: "changed", turn: end.record };
    case "unauthorized":
    case "contention":
      return { kind: end.kind };
    case "read-failed":
    case "uncertain":
      return { kind: end.kind, error: end.error };
  }
}

/** {@link changeTurnStatus}, best effort: the turn record it read or wrote, else `null`. */
export async function setTurnStatus(
  w: Worker,
  turnId: string,
  from: readonly TurnStatus[],
  to: TurnStatus,
  reason: string,
): Promise<TurnRecord | null> {
  const c = await changeTurnStatus(w, turnId, (s) => from.includes(s), to, reason);
  return "turn" in c ? c.turn : null;
}

/** True when no effect of `turn` is unresolved (every read succeeded). */
async function noneUnresolved(w: Worker, turn: TurnRecord): Promise<boolean> {
  for (const id of turn.effectIds) {
    const e = await w.store.readEffect(turn.turnId, id);
    if (!e.ok || unresolved(e.value)) return false;
  }
  return true;
}

/**
 * After an effect was resolved: the turn's current status, returned to
 * `running` when it was `needs-reconciliation` and no effect is left
 * unresolved (a cancelled turn stays cancelled). Best effort.
 */
export async function reopenIfResolved(w: Worker, turn: TurnRecord): Promise<TurnStatus> {
  let status: TurnStatus = turn.status;
  const t = await w.store.readTurn(turn.turnId);
  if (t.ok && t.value) status = t.value.status;
  if (status === "needs-reconciliation" && await noneUnresolved(w, turn)) {
    const after = await setTurnStatus(
      w,
      turn.turnId,
      ["needs-reconciliation"],
      "running",
      "reconciled",
    );
    if (after) status = after.status;
  }
  return status;
}
