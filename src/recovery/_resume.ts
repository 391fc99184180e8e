/**
 * `TurnRecovery.resume`: restart recovery, refused while any owner's lease
 * on an admitted effect is live (that owner may still be running).
 *
 * @module
 */
import { ok, type Result } from "../result.ts";
import type { TurnStatus } from "../v1/types.ts";
import { casLoop } from "./_cas.ts";
import { draftOf } from "./_lease_keeper.ts";
import { hasOutcome, leaseLive, refuse, validId } from "./_records.ts";
import { fields } from "./_request.ts";
import { readTurnFor } from "./_run_effect.ts";
import { setTurnStatus } from "./_turn_status.ts";
import type { Worker } from "./_worker.ts";
import type { ResumeOutcome } from "./turn_recovery.ts";
import { requireCapability } from "./profile.ts";
import type { ActorKind, EffectDraft, EffectRecord, RecoveryError } from "./types.ts";

const RESUMABLE: readonly TurnStatus[] = ["interrupted", "running", "needs-reconciliation"];

/** See `TurnRecovery.resume`. */
export async function resume(
  w: Worker,
  request: unknown,
): Promise<Result<ResumeOutcome, RecoveryError>> {
  const f = fields(request as Record<string, unknown>, ["turnId", "principal", "actor"]);
  const { turnId, principal } = f;
  const refusal = requireCapability(w.profile, "interruptedTurnRecovery");
  if (refusal) {
    return refuse("restart-recovery-unsupported", refusal.message, {
      ...(typeof turnId === "string" ? { turnId } : {}),
    });
  }
  if (!validId(turnId) || !validId(principal)) {
    return refuse("invalid-request", "turnId and principal must be non-empty ids");
  }
  const actor: ActorKind | undefined = f.actor === undefined || f.actor === "user"
    ? "user"
    : f.actor === "system"
    ? "system"
    : undefined;
  if (actor === undefined) {
    return refuse("invalid-request", "actor must be user or system", { turnId });
  }
  if (!await w.authorized(principal, turnId, "resume", actor)) {
    return refuse("unauthorized", "caller may not resume this turn", { turnId });
  }
  const tr = await readTurnFor(w, turnId);
  if (!tr.ok) return tr;
  const turn = tr.value;
  if (!RESUMABLE.includes(turn.status)) {
    return refuse("turn-not-running", `turn is ${turn.status}`, { turnId, status: turn.status });
  }
  // First pass: read everything; refuse before writing anything if an owner may be alive.
  const now = await w.clock.now();
  if (now === undefined) return refuse("store-unavailable", "the host clock failed", { turnId });
  const records: (EffectRecord | null)[] = [];
  let liveUntil = Number.NEGATIVE_INFINITY;
  for (const id of turn.effectIds) {
    const er = await w.store.readEffect(turnId, id);
    if (!er.ok) return refuse("store-unavailable", er.error, { turnId, effectId: id });
    const e = er.value;
    records.push(e);
    if (e?.state === "admitted" && leaseLive(e, now)) {
      liveUntil = Math.max(liveUntil, e.leaseUntil as number);
    }
  }
  if (liveUntil > Number.NEGATIVE_INFINITY) {
    return refuse(
      "lease-live",
      "an admitted effect's owner still holds its lease (its worker may be alive): resume after retryAt",
      { turnId, retryAt: liveUntil },
    );
  }
  const completed: string[] = [];
  const unknown: string[] = [];
  const pending: string[] = [];
  const claimLimited: string[] = [];
  const live: EffectRecord[] = [];
  for (let i = 0; i < turn.effectIds.length; i++) {
    const id = turn.effectIds[i];
    const end = await casLoop<EffectRecord, EffectDraft, EffectRecord[] | string[]>({
      current: records[i],
      ...w.effectCas(turnId, id),
      landed: (b) => b?.state === "unknown",
      decide: async (e) => {
        if (!e || e.state === "claimed" || e.state === "not-run") {
          const spent = typeof e?.claims === "number" && e.claims >= w.maxClaims;
          return { done: spent ? claimLimited : pending };
        }
        if (hasOutcome(e)) return { done: completed };
        if (e.state === "unknown") return { done: unknown };
        // Judge the lease again on the record this CAS would replace: after a
        // conflict it may be the owner's renewal (the owner is alive).
        const at = await w.clock.now();
        if (at === undefined || (e.state === "admitted" && leaseLive(e, at))) {
          live.push(e);
          return { done: live };
        }
        return {
          expected: e.revision,
          next: { ...draftOf(e), state: "unknown", reason: "in-flight-at-restart" },
        };
      },
    });
    if (end.kind === "done" && end.value === live) {
      const until = live[0].leaseUntil;
      return refuse(
        "lease-live",
        "an admitted effect's owner renewed its lease during resume (its worker is alive): resume after retryAt",
        { turnId, effectId: id, ...(typeof until === "number" ? { retryAt: until } : {}) },
      );
    }
    if (end.kind === "done") (end.value as string[]).push(id);
    // Written, or an uncertain write: either admitted or unknown, both need reconciliation.
    else if (end.kind === "written" || end.kind === "uncertain") unknown.push(id);
    else if (end.kind === "read-failed") {
      return refuse("store-unavailable", end.error, { turnId, effectId: id });
    } else return refuse("contention", "effect kept changing during resume", { turnId });
  }
  const target: TurnStatus = unknown.length > 0 ? "needs-reconciliation" : "running";
  const after = await setTurnStatus(w, turnId, RESUMABLE, target, "resumed");
  if (!after || after.status !== target) {
    return refuse("contention", "turn status changed during resume", { turnId });
  }
  return ok({ turn: after, completed, needsReconciliation: unknown, pending, claimLimited });
}
