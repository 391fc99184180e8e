/**
 * `TurnRecovery.reconcile` and `TurnRecovery.recordNotRun`: the host's
 * verified answer for an effect whose outcome this package cannot know,
 * written through the one CAS loop, refused while the owner's lease runs.
 *
 * @module
 */
import { clipText } from "../_internal/describe.ts";
import { isStorableText } from "../_internal/guards.ts";
import { ok, type Result } from "../result.ts";
import { casLoop } from "./_cas.ts";
import {
  hasOutcome,
  leaseLive,
  MAX_DETAIL_LENGTH,
  readOutcome,
  refuse,
  validId,
} from "./_records.ts";
import { fields } from "./_request.ts";
import { claimsOf, readTurnFor } from "./_run_effect.ts";
import { reopenIfResolved } from "./_turn_status.ts";
import type { Worker } from "./_worker.ts";
import type { ReconcileOutcome } from "./turn_recovery.ts";
import type {
  ActorKind,
  EffectDraft,
  EffectOutcome,
  EffectRecord,
  RecoveryError,
} from "./types.ts";

type Answer = Result<ReconcileOutcome, RecoveryError>;
type Decided = Answer | { readonly record: EffectRecord };

/** What the host asserts: the effect ran with `outcome`, or it verifiably did not run. */
type Verdict =
  | { readonly kind: "outcome"; readonly outcome: EffectOutcome }
  | { readonly kind: "not-run"; readonly evidence: string };

/** See `TurnRecovery.reconcile` (`kind` `outcome`) and `TurnRecovery.recordNotRun` (`not-run`). */
export async function resolveEffect(
  w: Worker,
  request: unknown,
  kind: Verdict["kind"],
): Promise<Answer> {
  const f = fields(request as Record<string, unknown>, [
    "turnId",
    "effectId",
    "principal",
    "outcome",
    "evidence",
    "actor",
    "claimToken",
  ]);
  const { turnId, effectId, principal } = f;
  if (!validId(turnId) || !validId(effectId) || !validId(principal)) {
    return refuse("invalid-request", "turnId, effectId and principal must be non-empty ids");
  }
  const at = { turnId, effectId };
  const actor: ActorKind | undefined = f.actor === undefined || f.actor === "user"
    ? "user"
    : f.actor === "system"
    ? "system"
    : undefined;
  if (actor === undefined) return refuse("invalid-request", "actor must be user or system", at);
  const token = typeof f.claimToken === "string" ? f.claimToken : undefined;
  let verdict: Verdict;
  if (kind === "outcome") {
    const read = readOutcome(f.outcome);
    if (read === null) {
      return refuse("invalid-request", "outcome must be {ok:true,value} or {ok:false,error}", at);
    }
    if ("problem" in read) return refuse("invalid-request", read.problem, at);
    verdict = { kind, outcome: read.outcome };
  } else {
    const e = f.evidence;
    if (e !== undefined && (typeof e !== "string" || !isStorableText(e))) {
      return refuse(
        "invalid-request",
        "evidence must be a string without NUL or a lone surrogate",
        at,
      );
    }
    verdict = { kind, evidence: clipText(e ?? "verified not run by the host", MAX_DETAIL_LENGTH) };
  }
  if (!await w.authorized(principal, turnId, "reconcile", actor)) {
    return refuse("unauthorized", "caller may not reconcile this turn", at);
  }
  const tr = await readTurnFor(w, turnId, effectId);
  if (!tr.ok) return tr;
  const end = await casLoop<EffectRecord, EffectDraft, Decided>({
    ...w.effectCas(turnId, effectId),
    landed: (b) => verdict.kind === "outcome" ? hasOutcome(b) : b?.state === "not-run",
    decide: async (cur) => {
      // A not-run record whose claim budget is spent is released again (budget reset).
      const spent = typeof cur?.claims === "number" && cur.claims >= w.maxClaims;
      const settled = verdict.kind === "outcome"
        ? hasOutcome(cur)
        : cur?.state === "not-run" && !spent;
      if (settled) return { done: { record: cur as EffectRecord } };
      if (verdict.kind === "not-run" && (hasOutcome(cur) || !cur)) {
        const state = cur ? { state: cur.state } : {};
        return {
          done: refuse(
            "effect-state",
            cur
              ? "the effect has a stored outcome: it ran"
              : "the effect was never claimed: nothing to record, it may run",
            { ...at, ...state },
          ),
        };
      }
      // A live claim or admission belongs to its owner (it may be about to
      // dispatch, or dispatching): only the owner's token resolves it now.
      if ((cur?.state === "admitted" || cur?.state === "claimed") && cur.claimToken !== token) {
        const now = await w.clock.now();
        if (now === undefined) {
          return { done: refuse("store-unavailable", "the host clock failed", at) };
        }
        if (leaseLive(cur, now)) {
          return {
            done: refuse(
              "lease-live",
              "the effect's owner still holds its lease: wait until retryAt, then check again",
              { ...at, retryAt: cur.leaseUntil },
            ),
          };
        }
      }
      const base = { turnId, effectId, claimToken: cur?.claimToken ?? "reconciled" };
      // The host's verified "did not run" resets the claim budget (maxClaims):
      // without it an effect whose claimers all died could never run again.
      const next: EffectDraft = verdict.kind === "outcome"
        ? {
          ...base,
          ...(cur ? claimsOf(cur) : {}),
          state: "completed",
          outcome: verdict.outcome,
          reconciled: true,
        }
        : { ...base, claims: 0, state: "not-run", reason: verdict.evidence };
      return { expected: cur ? cur.revision : 0, next };
    },
  });
  let record: EffectRecord;
  let changed: boolean;
  switch (end.kind) {
    case "done":
      if ("ok" in end.value) return end.value;
      record = end.value.record;
      changed = false;
      break;
    case "written":
      record = end.record;
      changed = !end.recovered || verdict.kind === "not-run" || end.record.reconciled === true;
      break;
    case "read-failed":
      return refuse("store-unavailable", end.error, at);
    case "uncertain":
      return refuse("checkpoint-write-failed", `resolution not stored: ${end.error}`, {
        ...at,
        ...(verdict.kind === "outcome" ? { outcome: verdict.outcome } : {}),
        uncertain: true,
      });
    default:
      return refuse("contention", "reconciliation kept conflicting", at);
  }
  const turnStatus = await reopenIfResolved(w, tr.value);
  return ok({ record, changed, turnStatus });
}
