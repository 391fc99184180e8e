/**
 * `TurnRecovery.runEffect`: claim (with a lease), admit through the store's
 * fence, dispatch only after the admission is acknowledged, keep the lease
 * while the work runs, store the outcome.
 *
 * @module
 */
import { clipText, describeThrown } from "../_internal/describe.ts";
import { ok, type Result } from "../result.ts";
import { casLoop } from "./_cas.ts";
import { hasFence } from "./_checked_store.ts";
import { draftOf, LeaseKeeper, leaseLeft, renewLease } from "./_lease_keeper.ts";
import {
  hasOutcome,
  leaseLive,
  MAX_DETAIL_LENGTH,
  refuse,
  validId,
  valueOutcome,
} from "./_records.ts";
import { fields } from "./_request.ts";
import { setTurnStatus } from "./_turn_status.ts";
import type { Worker } from "./_worker.ts";
import type { EffectRun, ReconcileReason, WaitReason } from "./turn_recovery.ts";
import type {
  AdmitOutcome,
  EffectDraft,
  EffectOutcome,
  EffectRecord,
  RecoveryError,
  TurnRecord,
} from "./types.ts";

type Answer = Result<EffectRun, RecoveryError>;
/** A step of the run: answer the caller, try again from a fresh read, or go on with `record`. */
type Step =
  | { readonly kind: "answer"; readonly answer: Answer }
  | { readonly kind: "retry" }
  | { readonly kind: "go"; readonly record: EffectRecord; readonly violated?: boolean };

const answer = (a: Answer): Step => ({ kind: "answer", answer: a });
const RETRY: Step = { kind: "retry" };

function waitRun(
  reason: WaitReason,
  retryAt: number,
  detail?: string,
  claimToken?: string,
): Answer {
  return ok({
    status: "needs-reconciliation",
    action: "wait",
    reason,
    retryAt,
    ...(detail === undefined ? {} : { detail }),
    ...(claimToken === undefined ? {} : { claimToken }),
  });
}

function reconcileRun(reason: ReconcileReason, detail?: string, claimToken?: string): Answer {
  return ok({
    status: "needs-reconciliation",
    action: "reconcile",
    reason,
    ...(detail === undefined ? {} : { detail }),
    ...(claimToken === undefined ? {} : { claimToken }),
  });
}

/** Read the turn and check `effectId` is one of its host-authorized effects. */
export async function readTurnFor(
  w: Worker,
  turnId: string,
  effectId?: string,
): Promise<Result<TurnRecord, RecoveryError>> {
  const at = effectId === undefined ? { turnId } : { turnId, effectId };
  const read = await w.store.readTurn(turnId);
  if (!read.ok) return refuse("store-unavailable", read.error, at);
  const turn = read.value;
  if (!turn) return refuse("unknown-turn", `no turn ${turnId}`, at);
  if (effectId !== undefined && !turn.effectIds.includes(effectId)) {
    return refuse("unknown-effect", `effect ${effectId} is not host-authorized for this turn`, at);
  }
  return ok(turn);
}

/** See `TurnRecovery.runEffect`. */
export async function runEffect(w: Worker, request: unknown): Promise<Answer> {
  const { turnId, effectId, principal, dispatch } = fields(
    request as Record<string, unknown>,
    ["turnId", "effectId", "principal", "dispatch"],
  );
  if (!validId(turnId) || !validId(effectId) || !validId(principal)) {
    return refuse("invalid-request", "turnId, effectId and principal must be non-empty ids");
  }
  if (typeof dispatch !== "function") {
    return refuse("invalid-request", "dispatch must be a function", { turnId, effectId });
  }
  const at = { turnId, effectId };
  if (!hasFence(w.hostStore) || !w.abort) {
    return refuse(
      "admission-unavailable",
      "the host supplies no admission fence or abort seam: dispatch refused",
      at,
    );
  }
  if (!await w.authorized(principal, turnId, "run", "user")) {
    return refuse("unauthorized", "caller may not run effects of this turn", at);
  }
  const turnRead = await readTurnFor(w, turnId, effectId);
  if (!turnRead.ok) return turnRead;
  let signal: unknown;
  let noSignal: string | undefined;
  try {
    signal = w.abort.signalFor(turnId);
    // inside the guard: `instanceof` throws on a revoked proxy
    if (!(signal instanceof AbortSignal)) noSignal = "not an AbortSignal";
  } catch (e) {
    noSignal = describeThrown(e);
  }
  if (noSignal !== undefined) {
    return refuse("admission-unavailable", `no host execution signal: ${noSignal}`, at);
  }
  const run = dispatch as (signal: AbortSignal) => unknown;
  const mine = new Set<string>();
  for (let n = 0; n < w.maxAttempts; n++) {
    await w.backoff.pause(n);
    const claimed = await claim(w, turnRead.value, effectId, mine);
    if (claimed.kind === "answer") return claimed.answer;
    if (claimed.kind === "retry") continue;
    const admitted = await admit(w, claimed.record, principal);
    if (admitted.kind === "answer") return admitted.answer;
    if (admitted.kind === "retry") continue;
    const done = await dispatchAndStore(
      w,
      admitted.record,
      run,
      signal as AbortSignal,
      admitted.violated === true,
    );
    if (done.kind === "answer") return done.answer;
  }
  return refuse("contention", `gave up after ${w.maxAttempts} conflicting attempts`, at);
}

/**
 * Claim the effect, or answer from what is stored. A claim is taken over
 * only when its lease ended; `mine` holds the tokens of this call's claims
 * (a claim of this call found again is used, not waited for).
 */
async function claim(
  w: Worker,
  turn: TurnRecord,
  effectId: string,
  mine: Set<string>,
): Promise<Step> {
  const turnId = turn.turnId;
  const at = { turnId, effectId };
  const end = await casLoop<EffectRecord, EffectDraft, Step>({
    ...w.effectCas(turnId, effectId),
    landed: (b, next) => b?.state === "claimed" && b.claimToken === next.claimToken,
    decide: async (eff) => {
      if (hasOutcome(eff)) {
        return { done: answer(ok({ status: "completed", outcome: eff.outcome, reused: true })) };
      }
      const now = await w.clock.now();
      if (now === undefined) {
        return { done: answer(refuse("store-unavailable", "the host clock failed", at)) };
      }
      if (eff?.state === "admitted") {
        return {
          done: answer(
            leaseLive(eff, now)
              ? waitRun("in-flight", eff.leaseUntil as number)
              : reconcileRun("owner-lost", "admitted by another owner, whose lease ended"),
          ),
        };
      }
      if (eff?.state === "claimed" && mine.has(eff.claimToken) && leaseLive(eff, now)) {
        return { done: { kind: "go", record: eff } };
      }
      if (eff?.state === "claimed" && leaseLive(eff, now)) {
        return { done: answer(waitRun("claimed-elsewhere", eff.leaseUntil as number)) };
      }
      if (eff && eff.state !== "claimed" && eff.state !== "not-run") {
        // `unknown`, a completion without a readable outcome, or a state this
        // version does not know: the effect may have run. Never claim over it.
        return {
          done: answer(reconcileRun(
            "outcome-unknown",
            eff.state === "unknown"
              ? eff.reason
              : `stored effect state '${clipText(String(eff.state), 64)}' has no usable outcome`,
          )),
        };
      }
      // Advisory only: the snapshot may be stale. The fence decides.
      if (turn.status !== "running") {
        return {
          done: answer(
            refuse("turn-not-running", `turn is ${turn.status}`, { ...at, status: turn.status }),
          ),
        };
      }
      const claims = typeof eff?.claims === "number" && Number.isSafeInteger(eff.claims)
        ? Math.max(0, eff.claims)
        : 0;
      if (claims >= w.maxClaims) {
        return {
          done: answer(refuse(
            "claim-limit",
            `effect was claimed ${claims} times (maxClaims ${w.maxClaims}) without completing; ` +
              "nothing more runs until the host verifies it did not run and calls recordNotRun " +
              "(which resets the claim budget)",
            at,
          )),
        };
      }
      const token = w.nextToken();
      mine.add(token);
      return {
        expected: eff ? eff.revision : 0,
        next: {
          turnId,
          effectId,
          state: "claimed",
          claimToken: token,
          leaseUntil: now + w.leaseMs,
          claims: claims + 1,
        },
      };
    },
  });
  switch (end.kind) {
    case "done":
      return end.value;
    case "written":
      return { kind: "go", record: end.record };
    case "read-failed":
      return answer(refuse("store-unavailable", end.error, at));
    case "uncertain":
      return end.observed === undefined
        ? answer(waitRun(
          "uncertain-claim-ack",
          end.next.leaseUntil as number,
          `the claim's acknowledgement was lost and could not be read back: ${end.error}`,
        ))
        : RETRY;
    case "contention":
    case "unauthorized":
      return answer(refuse("contention", "the claim kept conflicting", at));
  }
}

/**
 * Ask the fence to admit `claim`. The launch callback only records that the
 * fence admitted: the dispatch itself starts once the admission is
 * acknowledged (or read back), so an admission whose COMMIT failed never
 * dispatched anything, and an expired `claimed` record is never one that ran.
 */
async function admit(w: Worker, claim: EffectRecord, principal: string): Promise<Step> {
  const { turnId, effectId, claimToken } = claim;
  const at = { turnId, effectId };
  let launches = 0;
  let inFence = 0;
  let open = true;
  const launch = () => {
    launches++;
    if (open) inFence++;
  };
  // The admitted owner gets a fresh lease (the claim's may be partly spent).
  const now = await w.clock.now();
  if (now === undefined) return answer(refuse("store-unavailable", "the host clock failed", at));
  const admission = await w.store.admitDispatch({
    turnId,
    effectId,
    claimRevision: claim.revision,
    principal,
    leaseUntil: now + w.leaseMs,
    launch,
  });
  open = false;
  // `undefined`: the fence rejected or answered malformed (an uncertain acknowledgement).
  const out: AdmitOutcome | undefined = admission.ok ? admission.value : undefined;
  const violated = (message: string) => answer(refuse("admission-contract-violated", message, at));
  if (out?.admitted) {
    if (inFence === 0) return violated("admitDispatch admitted without invoking launch");
    return { kind: "go", record: out.record, violated: inFence > 1 };
  }
  if (out) {
    if (launches > 0) return violated("admitDispatch refused but invoked launch");
    switch (out.reason) {
      case "stale-claim":
        return RETRY;
      case "unauthorized":
        return answer(refuse("unauthorized", "authority revoked at the admission fence", at));
      case "unknown-turn":
        return answer(refuse("unknown-turn", `no turn ${turnId}`, at));
      default:
        return answer(refuse(
          "turn-not-running",
          `admission refused: turn is ${out.status ?? "not running"}`,
          { ...at, status: out.status },
        ));
    }
  }
  // Uncertain acknowledgement: nothing was dispatched. One read tells whether the mark committed.
  const back = await w.store.readEffect(turnId, effectId);
  if (!back.ok) {
    return answer(waitRun(
      "uncertain-admission",
      claim.leaseUntil ?? 0,
      `nothing was dispatched by this call; the admission could not be read back: ${back.error}`,
      claimToken,
    ));
  }
  const b = back.value;
  if (b?.state === "admitted" && b.claimToken === claimToken && b.revision === claim.revision + 1) {
    if (inFence === 0) return violated("admitDispatch marked the effect without invoking launch");
    return { kind: "go", record: b, violated: inFence > 1 };
  }
  return RETRY;
}

/**
 * Dispatch once under the owner's lease and store the outcome. A dispatch
 * starts only with at least `minDispatchLeaseMs` (half the lease) left: a
 * shorter lease (a fence that did not write the fresh `leaseUntil`, a slow
 * admission) is first renewed by CAS. Nothing is dispatched when the
 * execution was aborted or the lease still falls short: the owner records
 * `not-run` itself (it knows), and the run refuses (aborted) or claims
 * again (lease).
 */
async function dispatchAndStore(
  w: Worker,
  admitted: EffectRecord,
  dispatch: (signal: AbortSignal) => unknown,
  signal: AbortSignal,
  violated: boolean,
): Promise<Step> {
  const { turnId, effectId } = admitted;
  const at = { turnId, effectId };
  let owner = admitted;
  let now = await w.clock.now();
  if (!signal.aborted && now !== undefined && leaseLeft(owner, now) < w.minDispatchLeaseMs) {
    const renewed = await renewLease(w, owner);
    if (renewed) owner = renewed;
    now = await w.clock.now();
  }
  if (signal.aborted || now === undefined || leaseLeft(owner, now) < w.minDispatchLeaseMs) {
    const why = signal.aborted
      ? "the turn's execution was aborted before dispatch"
      : `the owner's lease had less than ${w.minDispatchLeaseMs} ms left before dispatch`;
    await recordOwnNotRun(w, owner, why);
    if (!signal.aborted) return RETRY;
    const t = await w.store.readTurn(turnId);
    const status = t.ok ? t.value?.status : undefined;
    return answer(refuse("turn-not-running", `${why}; nothing was dispatched`, {
      ...at,
      ...(status === undefined ? {} : { status }),
    }));
  }
  // The keeper renews the lease while the work runs and aborts the
  // dispatch's signal before the lease could end unrenewed.
  const keeper = new LeaseKeeper(w, owner, signal, now);
  let raw: unknown;
  try {
    raw = dispatch(keeper.signal);
  } catch (e) {
    raw = Promise.reject(e);
  }
  const settled = await Promise.resolve(raw).then(
    (value) => ({ ok: true as const, value }),
    (e) => ({ ok: false as const, error: describeThrown(e, MAX_DETAIL_LENGTH) }),
  );
  const owned = await keeper.stop();
  if (!settled.ok) {
    await markUnknown(w, owned, "dispatch-error");
    if (violated) {
      return answer(
        refuse("admission-contract-violated", "admission fence violated its contract", at),
      );
    }
    return answer(reconcileRun("dispatch-error", settled.error, owned.claimToken));
  }
  const read = valueOutcome(settled.value);
  if ("problem" in read) {
    // It ran, and its value cannot be stored as given by any store: the
    // host reconciles with a JSON outcome (nothing half-stored, never admitted forever).
    await markUnknown(w, owned, "outcome-not-json");
    if (violated) {
      return answer(
        refuse("admission-contract-violated", "admission fence violated its contract", at),
      );
    }
    return answer(
      reconcileRun("dispatch-error", `the dispatch's ${read.problem}`, owned.claimToken),
    );
  }
  const outcome: EffectOutcome = read.outcome;
  const stored = await complete(w, owned, outcome);
  if (violated && stored.ok) {
    return answer(refuse("admission-contract-violated", "admission fence violated its contract", {
      ...at,
      outcome,
    }));
  }
  return answer(stored);
}

/** `{ claims }` of `record` when it has a count (no `undefined` key otherwise). */
export function claimsOf(record: EffectRecord): { claims?: number } {
  return record.claims === undefined ? {} : { claims: record.claims };
}

/** The owner records that it did not dispatch its admitted effect (best effort). */
async function recordOwnNotRun(w: Worker, admitted: EffectRecord, why: string): Promise<void> {
  const { turnId, effectId, claimToken } = admitted;
  await casLoop<EffectRecord, EffectDraft, null>({
    current: admitted,
    ...w.effectCas(turnId, effectId),
    decide: (cur) =>
      cur?.state === "admitted" && cur.claimToken === claimToken
        ? {
          expected: cur.revision,
          next: { turnId, effectId, state: "not-run", claimToken, ...claimsOf(cur), reason: why },
        }
        : { done: null },
    landed: (b) => b?.state === "not-run",
  });
}

/** Mark the owner's effect `unknown` and the turn `needs-reconciliation` (best effort). */
async function markUnknown(w: Worker, owned: EffectRecord, reason: string): Promise<void> {
  const { turnId, effectId, claimToken } = owned;
  await casLoop<EffectRecord, EffectDraft, null>({
    current: owned,
    ...w.effectCas(turnId, effectId),
    decide: (cur) =>
      cur?.claimToken === claimToken && (cur.state === "admitted" || cur.state === "not-run")
        ? { expected: cur.revision, next: { ...draftOf(cur), state: "unknown", reason } }
        : { done: null },
    landed: (b) => b?.state === "unknown",
  });
  await setTurnStatus(w, turnId, ["running"], "needs-reconciliation", reason);
}

/** Store the owner's verified outcome by CAS; read back a lost acknowledgement. */
async function complete(
  w: Worker,
  owned: EffectRecord,
  outcome: EffectOutcome,
): Promise<Answer> {
  const { turnId, effectId, claimToken } = owned;
  const at = { turnId, effectId };
  const end = await casLoop<EffectRecord, EffectDraft, Answer>({
    current: owned,
    ...w.effectCas(turnId, effectId),
    landed: (b) => hasOutcome(b) && b.claimToken === claimToken && b.reconciled !== true,
    decide: (cur) => {
      if (hasOutcome(cur)) {
        if (cur.claimToken === claimToken && cur.reconciled !== true) {
          return { done: ok({ status: "completed", outcome: cur.outcome, reused: false }) };
        }
        return {
          done: refuse(
            "checkpoint-write-failed",
            cur.reconciled === true
              ? "the host reconciled this effect while this worker still ran it"
              : "completion conflicts with another writer",
            { ...at, outcome, stored: cur.outcome, uncertain: false, claimToken },
          ),
        };
      }
      if (cur?.claimToken === claimToken && cur.state !== "completed") {
        return {
          expected: cur.revision,
          next: {
            turnId,
            effectId,
            state: "completed",
            claimToken,
            ...claimsOf(cur),
            outcome,
          },
        };
      }
      return {
        done: refuse("checkpoint-write-failed", "completion conflicts with another writer", {
          ...at,
          outcome,
          uncertain: false,
          claimToken,
        }),
      };
    },
  });
  switch (end.kind) {
    case "done":
      return end.value;
    case "written":
      return ok({
        status: "completed",
        outcome: end.recovered && hasOutcome(end.record) ? end.record.outcome : outcome,
        reused: false,
      });
    case "uncertain":
      return refuse("checkpoint-write-failed", `completion not stored: ${end.error}`, {
        ...at,
        outcome,
        uncertain: end.observed === undefined,
        claimToken,
      });
    default:
      return refuse("contention", "completion kept conflicting", { ...at, outcome });
  }
}
