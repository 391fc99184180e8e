/**
 * `TurnRecovery.cancel` and `TurnRecovery.expire`: commit the stop by a
 * guarded CAS (authority rechecked under the turn lock, the lock admission
 * takes), then abort this process's execution, then tell the other
 * processes.
 *
 * @module
 */
import { clipText, describeThrown } from "../_internal/describe.ts";
import { isStorableText } from "../_internal/guards.ts";
import { ok, type Result } from "../result.ts";
import { MAX_DETAIL_LENGTH, refuse, unresolved, validId } from "./_records.ts";
import { fields } from "./_request.ts";
import { changeTurnStatus } from "./_turn_status.ts";
import type { Worker } from "./_worker.ts";
import type { CancelOutcome } from "./turn_recovery.ts";
import type { ActorKind, RecoveryError } from "./types.ts";

/** See `TurnRecovery.cancel` (`action` `cancel`) and `TurnRecovery.expire` (`expire`). */
export async function stopTurn(
  w: Worker,
  request: unknown,
  action: "cancel" | "expire",
): Promise<Result<CancelOutcome, RecoveryError>> {
  const f = fields(request as Record<string, unknown>, ["turnId", "principal", "reason", "actor"]);
  const { turnId, principal } = f;
  const fallback = action === "cancel" ? "cancelled" : "expired";
  const reason = typeof f.reason === "string" ? clipText(f.reason, MAX_DETAIL_LENGTH) : fallback;
  if (!validId(turnId) || !validId(principal)) {
    return refuse("invalid-request", "turnId and principal must be non-empty ids");
  }
  if (!isStorableText(reason)) {
    return refuse("invalid-request", "reason must not hold a NUL or a lone surrogate", { turnId });
  }
  const actor: ActorKind | undefined = action === "expire"
    ? (f.actor === undefined || f.actor === "system" ? "system" : undefined)
    : f.actor === undefined || f.actor === "user"
    ? "user"
    : f.actor === "system"
    ? "system"
    : undefined;
  if (actor === undefined) {
    return refuse(
      "invalid-request",
      action === "expire" ? "expire is a system action" : "actor must be user or system",
      { turnId },
    );
  }
  if (!await w.authorized(principal, turnId, action, actor)) {
    return refuse("unauthorized", `caller may not ${action} this turn`, { turnId });
  }
  const target = action === "cancel" ? "cancelled" : "failed";
  const c = await changeTurnStatus(
    w,
    turnId,
    action === "cancel"
      ? (s) => s !== "completed" && s !== "failed"
      : (s) => s !== "completed" && s !== "failed" && s !== "cancelled",
    target,
    reason,
    { principal, actor, action },
  );
  switch (c.kind) {
    case "read-failed":
      return refuse("store-unavailable", c.error, { turnId });
    case "missing":
      return refuse("unknown-turn", `no turn ${turnId}`, { turnId });
    case "unauthorized":
      return refuse("unauthorized", `authority to ${action} was revoked at the turn lock`, {
        turnId,
      });
    case "other":
      return refuse("turn-not-running", `turn is ${c.turn.status}`, {
        turnId,
        status: c.turn.status,
      });
    case "uncertain":
      return refuse("cancel-uncertain", `${action} not confirmed: ${c.error}`, {
        turnId,
        uncertain: true,
      });
    case "contention":
      return refuse("contention", `${action} kept conflicting`, { turnId });
  }
  if (c.kind === "already" && action === "expire") {
    return refuse("turn-not-running", "turn is failed", { turnId, status: "failed" });
  }
  const committed = c.turn;
  let abortError: string | undefined;
  if (w.abort) {
    try {
      await w.abort.abort(turnId, reason);
    } catch (e) {
      abortError = describeThrown(e);
    }
  }
  let deliveryError: string | undefined;
  if (w.cancelDelivery) {
    try {
      await w.cancelDelivery.publish({
        turnId,
        revision: committed.revision,
        status: target,
        reason: committed.reason ?? reason,
      });
    } catch (e) {
      deliveryError = describeThrown(e);
    }
  }
  const inFlight: string[] = [];
  for (const id of committed.effectIds) {
    const e = await w.store.readEffect(turnId, id);
    if (e.ok && unresolved(e.value)) inFlight.push(id);
  }
  return ok({
    turn: committed,
    alreadyCancelled: c.kind === "already",
    inFlight,
    ...(abortError === undefined ? {} : { abortError }),
    ...(deliveryError === undefined ? {} : { deliveryError }),
  });
}
